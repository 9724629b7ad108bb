// `messenger send` and `messenger send-mms`: recipients from flags, files and address books, the
// text or the multimedia content from flags and files, and the send through GatewayClient.
import Papa from 'papaparse';
import { parseRecipientText } from '../../protocol/msisdn.ts';
import { ADD_SMIL_VALUES } from '../../protocol/limits.ts';
import type { AddSmil, DeliveryOption, PhoneMake } from '../../protocol/limits.ts';
import type { GatewayClient, MmsRequest, SmsRequest } from '../client/gateway-client.ts';
import { MMS_CONTENT_TYPES } from '../client/mms.ts';
import type { MmsContent, MmsContentType, SiAction } from '../client/mms.ts';
import type { SendResult } from '../client/results.ts';
import { UsageError } from './args.ts';
import type { CliIO, Values } from './args.ts';
import { readBytes, readText } from './files.ts';
import { printSend, progressBar } from './output.ts';

export async function recipients(values: Values): Promise<string[]> {
  const out: string[] = [];
  for (const list of values.to ?? []) out.push(...parseRecipientText(list));
  for (const file of values['to-file'] ?? [])
    out.push(...numbersFromFile(await readText(file, '--to-file'), values['to-column']));
  return out;
}

/** One number per line, or a CSV column (a header named like number/phone/mobile/msisdn, or --to-column). */
export function numbersFromFile(text: string, column?: string): string[] {
  const parsed = Papa.parse<string[]>(text.trim(), { skipEmptyLines: 'greedy' });
  const rows = parsed.data.map((row) => row.map((cell) => cell.trim()));
  if (rows.length === 0) return [];
  const header = rows[0] ?? [];
  let index = 0;
  let start = 0;
  if (column !== undefined) {
    const asNumber = Number(column);
    if (Number.isInteger(asNumber) && asNumber >= 1) index = asNumber - 1;
    else {
      index = header.findIndex((h) => h.toLowerCase() === column.toLowerCase());
      if (index < 0)
        throw new UsageError(`--to-column "${column}" is not a column of the file (${header.join(', ')})`);
      start = 1;
    }
  } else {
    const guess = header.findIndex((h) => /^(number|phone|mobile|msisdn|tel|telephone|sendto|to)$/i.test(h));
    if (guess >= 0) {
      index = guess;
      start = 1;
    } else if (header.length > 1) {
      // No header: the first column that looks like a number in the first row.
      const digits = header.findIndex((h) => /^\+?[\d\s().-]{7,}$/.test(h));
      index = digits >= 0 ? digits : 0;
    }
  }
  return rows
    .slice(start)
    .map((row) => row[index] ?? '')
    .filter((v) => v !== '');
}

function schedule(values: Values): Pick<SmsRequest, 'sendTimeDelay' | 'sendTimeAbsolute'> {
  const out: Pick<SmsRequest, 'sendTimeDelay' | 'sendTimeAbsolute'> = {};
  if (values.delay !== undefined) {
    const minutes = Number(values.delay);
    if (!Number.isInteger(minutes))
      throw new UsageError(`--delay takes whole minutes, got "${values.delay}"`);
    out.sendTimeDelay = minutes;
  }
  if (values.at !== undefined) out.sendTimeAbsolute = values.at;
  return out;
}

async function messageText(values: Values): Promise<string | undefined> {
  if (values['text-file'] !== undefined)
    return (await readText(values['text-file'], '--text-file')).replace(/\r?\n$/, '');
  return values.text;
}

export async function cmdSend(
  client: GatewayClient,
  values: Values,
  io: CliIO,
  json: boolean,
): Promise<number> {
  const to = await recipients(values);
  const text = await messageText(values);
  if (text === undefined) throw new UsageError('send needs --text or --text-file');
  const progress = progressBar(io, json, to.length);
  let result: SendResult;
  if (values.deprecated === true) {
    if (values['address-book'] !== undefined || values.flash === true) {
      throw new UsageError('--deprecated (format one) sends plain text to numbers only');
    }
    result = await client.sendSmsDeprecated({ to, text }, progress);
  } else {
    const req: SmsRequest = { to, text, ...schedule(values) };
    if (values.flash === true) req.flash = true;
    if (values['address-book'] !== undefined) req.toAddressBook = values['address-book'];
    if (values['reply-to'] !== undefined) req.replyTo = values['reply-to'];
    if (values.delivery !== undefined) req.deliveryOption = values.delivery as DeliveryOption;
    result = await client.sendSms(req, progress);
  }
  return printSend(io, json, result);
}

export async function cmdSendMms(
  client: GatewayClient,
  values: Values,
  io: CliIO,
  json: boolean,
): Promise<number> {
  const type = values.type as MmsContentType | undefined;
  if (type === undefined || !MMS_CONTENT_TYPES.includes(type)) {
    throw new UsageError(`send-mms needs --type ${MMS_CONTENT_TYPES.join('|')}`);
  }
  const content = await mmsContent(type, values);
  const to = await recipients(values);
  const req: MmsRequest = { to, content, ...schedule(values) };
  if (values['address-book'] !== undefined) req.toAddressBook = values['address-book'];
  if (values['reply-to'] !== undefined) req.replyTo = values['reply-to'];
  if (values['phone-make'] !== undefined) req.phoneMake = values['phone-make'] as PhoneMake;
  if (values['phone-model'] !== undefined) req.phoneModel = values['phone-model'];
  if (values.subject !== undefined) req.message = values.subject;
  else if (values.text !== undefined && type !== 'pdu') req.message = values.text;
  if (values['content-type'] !== undefined) req.contentType = values['content-type'];
  if (values['no-repurposing'] === true) req.disableRepurposing = true;
  if (values['no-walled-garden'] === true) req.disableWalledGardenRule = true;
  if (values.smil !== undefined) {
    if (!(ADD_SMIL_VALUES as ReadonlyArray<string>).includes(values.smil))
      throw new UsageError(`--smil takes ${ADD_SMIL_VALUES.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`);
    req.addSmil = values.smil as AddSmil;
  }
  if (values.cc !== undefined) req.sendCc = values.cc.flatMap((c) => parseRecipientText(c));
  if (values.bcc !== undefined) req.sendBcc = values.bcc.flatMap((c) => parseRecipientText(c));
  const result = await client.sendMms(req, progressBar(io, json, to.length));
  return printSend(io, json, result);
}

async function libraryOrBytes(values: Values, what: string): Promise<number | Uint8Array> {
  if (values.library !== undefined) return libraryNumber(values.library);
  if (values.file !== undefined) return readBytes(values.file);
  if (values.hex !== undefined) return hexBytes(values.hex);
  throw new UsageError(`${what} needs --library N, --file F or --hex HEX`);
}

function libraryNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--library takes a library number, got "${value}"`);
  return n;
}

function hexBytes(hex: string): Uint8Array {
  const clean = hex.replace(/[\s:]/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new UsageError(`not hex: "${hex.slice(0, 40)}"`);
  return Uint8Array.from(Buffer.from(clean, 'hex'));
}

async function mmsContent(type: MmsContentType, values: Values): Promise<MmsContent> {
  switch (type) {
    case 'pictureMessage':
      return { type, picture: await libraryOrBytes(values, type) };
    case 'groupGraphic':
      return { type, graphic: await libraryOrBytes(values, type) };
    case 'operatorLogo': {
      const mcc = Number(values.mcc);
      const mnc = Number(values.mnc);
      if (!Number.isInteger(mcc) || !Number.isInteger(mnc))
        throw new UsageError('operatorLogo needs --mcc and --mnc');
      return { type, logo: await libraryOrBytes(values, type), mcc, mnc };
    }
    case 'ringtone':
      return {
        type,
        ringtone: values.ringtone ?? (await libraryOrBytes(values, 'ringtone (or --ringtone RTTTL)')),
      };
    case 'vCard': {
      const file = values['vcard-file'] ?? values.file;
      if (file === undefined) throw new UsageError('vCard needs --vcard-file F');
      return { type, vcard: await readText(file, '--vcard-file') };
    }
    case 'vCal': {
      const file = values['vcal-file'] ?? values.file;
      if (file === undefined) throw new UsageError('vCal needs --vcal-file F');
      return { type, vcal: await readText(file, '--vcal-file') };
    }
    case 'mmsNotification':
    case 'wapPush': {
      if (values.library !== undefined) {
        const n = libraryNumber(values.library);
        return type === 'wapPush' ? { type, libraryNumber: n } : { type, libraryNumber: n };
      }
      if (values.file === undefined) throw new UsageError(`${type} needs --library N or --file F`);
      const file = {
        name: values.file.split(/[\\/]/).pop() ?? values.file,
        data: await readBytes(values.file),
      };
      return type === 'wapPush' ? { type, file } : { type, file };
    }
    case 'serviceIndication': {
      const href = values['si-href'];
      if (href === undefined) throw new UsageError('serviceIndication needs --si-href URI');
      const si: MmsContent = { type, href };
      if (values['si-id'] !== undefined) si.id = values['si-id'];
      if (values['si-created'] !== undefined) si.created = values['si-created'];
      if (values['si-expires'] !== undefined) si.expires = values['si-expires'];
      if (values['si-action'] !== undefined) si.action = values['si-action'] as SiAction;
      if (values['si-content'] !== undefined) si.content = values['si-content'];
      if (values['si-info-pcdata'] !== undefined || values['si-info-class'] !== undefined) {
        si.info = { pcdata: values['si-info-pcdata'] ?? '', class: values['si-info-class'] ?? '' };
      }
      return si;
    }
    case 'pdu': {
      const { 'pdu-dcs': dcs, 'pdu-pid': pid, 'pdu-udh': udh } = values;
      if (dcs === undefined || pid === undefined || udh === undefined) {
        throw new UsageError(
          'pdu needs --pdu-dcs, --pdu-pid and --pdu-udh (hex), and --pdu-ud HEX or --text T',
        );
      }
      const pdu: MmsContent = { type, dataCodingScheme: dcs, protocolIdentifier: pid, userDataHeader: udh };
      if (values['pdu-ud'] !== undefined) pdu.userData = values['pdu-ud'];
      if (values.text !== undefined) pdu.text = values.text;
      return pdu;
    }
  }
}
