// Command-line client for scripts and admins, on the same GatewayClient as the app.
// `npm run cli -- <command> [options]`, or the package bin `messenger`. Run `… help` for usage.
//
// Exit codes: 0 every recipient accepted / operation succeeded; 1 any recipient failed or the gateway
// refused; 2 usage or validation error (nothing was sent); 3 unknown: a request may or may not have
// been processed (it was not sent again; check before resending).
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';
import Papa from 'papaparse';
import { parseRecipientText } from '../protocol/msisdn.ts';
import { GatewayClient } from './client/gateway-client.ts';
import type {
  ChildAccountRequest,
  GatewayClientOptions,
  MmsRequest,
  SmsRequest,
} from './client/gateway-client.ts';
import { MMS_CONTENT_TYPES } from './client/mms.ts';
import type { MmsContent, MmsContentType, SiAction } from './client/mms.ts';
import { ValidationError } from './client/results.ts';
import type { Progress, RecipientResult, Result, SendResult } from './client/results.ts';
import type { ChildAccountType, DeliveryOption, PhoneMake } from '../protocol/limits.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2, unknown: 3 } as const;

export interface CliIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  /** Asks for the PIN with hidden input; undefined when there is no terminal. */
  promptPin?: (() => Promise<string | undefined>) | undefined;
}

class UsageError extends Error {}

const USAGE = `Usage: messenger <command> [options]

Commands:
  send          send a text (or flash) SMS             --text T [--flash] recipients…
  send-mms      send multimedia / smart content        --type TYPE … recipients…
  credit        available credit (and currency)
  messages      approximate available premier messages
  reply-to      permitted ReplyTo values
  inbox         collect inbound messages (SOAP CollectMessages)
  version       client software version (SOAP MobileMessengerVersion)
  child create  --type TRANSFER|SHARED --email E --country-code CC --mobile N [--given-name --family-name --company]
  child delete  <child-username>
  child transfer <username> (--amount 10.00 | --messages N)

Connection (flags or environment):
  --url URL              primary gateway        MESSENGER_URL
  --secondary-url URL    secondary gateway      MESSENGER_SECONDARY_URL
  --username NAME        account                MESSENGER_USERNAME
  PIN                    only MESSENGER_PIN or the interactive prompt (never a flag)
  --timeout S            connect and response timeouts, seconds (default 30)
  --ca FILE              extra trusted CA certificate (PEM) for HTTPS
  --country CC           default country for national numbers, e.g. GB   MESSENGER_COUNTRY
  --json                 machine-readable output on stdout

Recipients (send, send-mms): --to N[,N…] (repeatable), --to-file FILE (one per line or a CSV column;
  --to-column NAME|INDEX), --address-book NAME[::GROUP]
send options: --text T | --text-file F, --flash, --reply-to R, --delay MINUTES, --at YYYY-MM-DDTHH:MM:SS (UTC),
  --delivery Default|Premier|LeastCost|Economy, --deprecated (format one: UN/PIN/M/N)
send-mms: --type ${MMS_CONTENT_TYPES.join('|')}
  --library N | --file F | --hex HEX     content by library number, file (sent hex-encoded) or hex
  --ringtone RTTTL  --vcard-file F  --vcal-file F  --mcc N --mnc N
  --si-href URI --si-id ID --si-created T --si-expires T --si-action A --si-content TEXT --si-info-pcdata P --si-info-class C
  --pdu-dcs HEX --pdu-pid HEX --pdu-udh HEX [--pdu-ud HEX | --text T]
  --phone-make MAKE --phone-model M --subject S --content-type MIME --cc N,… --bcc N,…
  --no-repurposing --no-walled-garden --smil 0|1|2
credit, messages, reply-to: --soap uses the SOAP operation instead of queryaccount.

Exit codes: 0 all accepted, 1 any failed, 2 usage/validation (nothing sent), 3 unknown (may have been sent).
`;

const OPTIONS = {
  url: { type: 'string' },
  'secondary-url': { type: 'string' },
  username: { type: 'string' },
  pin: { type: 'string' },
  timeout: { type: 'string' },
  ca: { type: 'string' },
  country: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  soap: { type: 'boolean' },
  to: { type: 'string', multiple: true },
  'to-file': { type: 'string', multiple: true },
  'to-column': { type: 'string' },
  'address-book': { type: 'string' },
  text: { type: 'string' },
  'text-file': { type: 'string' },
  flash: { type: 'boolean' },
  'reply-to': { type: 'string' },
  delay: { type: 'string' },
  at: { type: 'string' },
  delivery: { type: 'string' },
  deprecated: { type: 'boolean' },
  type: { type: 'string' },
  library: { type: 'string' },
  file: { type: 'string' },
  hex: { type: 'string' },
  ringtone: { type: 'string' },
  'vcard-file': { type: 'string' },
  'vcal-file': { type: 'string' },
  mcc: { type: 'string' },
  mnc: { type: 'string' },
  'si-href': { type: 'string' },
  'si-id': { type: 'string' },
  'si-created': { type: 'string' },
  'si-expires': { type: 'string' },
  'si-action': { type: 'string' },
  'si-content': { type: 'string' },
  'si-info-pcdata': { type: 'string' },
  'si-info-class': { type: 'string' },
  'pdu-dcs': { type: 'string' },
  'pdu-pid': { type: 'string' },
  'pdu-udh': { type: 'string' },
  'pdu-ud': { type: 'string' },
  'phone-make': { type: 'string' },
  'phone-model': { type: 'string' },
  subject: { type: 'string' },
  'content-type': { type: 'string' },
  cc: { type: 'string', multiple: true },
  bcc: { type: 'string', multiple: true },
  'no-repurposing': { type: 'boolean' },
  'no-walled-garden': { type: 'boolean' },
  smil: { type: 'string' },
  email: { type: 'string' },
  'country-code': { type: 'string' },
  mobile: { type: 'string' },
  'given-name': { type: 'string' },
  'family-name': { type: 'string' },
  company: { type: 'string' },
  amount: { type: 'string' },
  messages: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
>['values'];

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIO): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined || command === 'help') {
    (command === undefined && values.help !== true ? io.stderr : io.stdout).write(USAGE);
    return command === undefined && values.help !== true ? EXIT.usage : EXIT.ok;
  }
  let client: GatewayClient | undefined;
  try {
    if (values.pin !== undefined) {
      throw new UsageError(
        'the PIN is never taken as a flag (it would stay in shell history): set MESSENGER_PIN or answer the prompt',
      );
    }
    const needsAccount = command !== 'version';
    client = new GatewayClient(await connection(values, env, io, needsAccount));
    const json = values.json === true;
    switch (command) {
      case 'send':
        return await cmdSend(client, values, io, json);
      case 'send-mms':
        return await cmdSendMms(client, values, io, json);
      case 'credit': {
        if (values.soap === true) {
          return printResult(
            io,
            json,
            await client.soapAvailableCredit(),
            (v) => `${v.Credit} ${v.Currency}`,
          );
        }
        return printResult(io, json, await client.availableCredit(), (v) => `${v.credit} ${v.currency}`);
      }
      case 'messages': {
        const r =
          values.soap === true ? await client.soapAvailableMessages() : await client.availableMessages();
        return printResult(io, json, r, (v) => String(v));
      }
      case 'reply-to': {
        const r =
          values.soap === true ? await client.soapPermittedReplyTo() : await client.permittedReplyTo();
        return printResult(io, json, r, (v) => v.join('\n'));
      }
      case 'inbox': {
        const r = await client.collectMessages();
        return printResult(io, json, r, (v) =>
          v.MessageList.item.length === 0
            ? 'no new messages'
            : v.MessageList.item
                .map(
                  (m) =>
                    `${m.Timestamp1}  from ${m.ReplyTo} to ${m.SendTo}: ${m.Message.TextMessage ?? m.Message.FlashMessage ?? '(content)'}`,
                )
                .join('\n'),
        );
      }
      case 'version': {
        const r = await client.mobileMessengerVersion();
        return printResult(
          io,
          json,
          r,
          (v) => `${v.Version} (${v.ReleaseDate})\n${v.ReleaseNotice}\n${v.DownloadURL}`,
        );
      }
      case 'child':
        return await cmdChild(client, rest, values, io, json);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`error: ${err.message}\n(run "messenger help" for usage)\n`);
      return EXIT.usage;
    }
    if (err instanceof ValidationError) {
      if (values.json === true) {
        io.stdout.write(`${JSON.stringify({ outcome: 'invalid', problems: err.problems }, null, 2)}\n`);
      }
      io.stderr.write(`${err.message}\nnothing was sent\n`);
      return EXIT.usage;
    }
    if (err instanceof TypeError && /gateway URL/.test(err.message)) {
      io.stderr.write(`error: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    await client?.close();
  }
}

async function connection(
  values: Values,
  env: NodeJS.ProcessEnv,
  io: CliIO,
  needsAccount: boolean,
): Promise<GatewayClientOptions> {
  const url = values.url ?? env.MESSENGER_URL;
  if (url === undefined || url === '') throw new UsageError('no gateway: give --url or set MESSENGER_URL');
  const username = values.username ?? env.MESSENGER_USERNAME ?? '';
  let pin = env.MESSENGER_PIN;
  if (needsAccount) {
    if (username === '') throw new UsageError('no account: give --username or set MESSENGER_USERNAME');
    if (pin === undefined || pin === '') pin = await io.promptPin?.();
    if (pin === undefined || pin === '') {
      throw new UsageError('no PIN: set MESSENGER_PIN or run in a terminal to be asked for it');
    }
  }
  let timeoutMs = 30_000;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new UsageError(`--timeout must be a positive number of seconds, got "${values.timeout}"`);
    timeoutMs = Math.round(seconds * 1000);
  }
  const secondaryUrl = values['secondary-url'] ?? env.MESSENGER_SECONDARY_URL;
  return {
    primaryUrl: url,
    ...(secondaryUrl !== undefined && secondaryUrl !== '' ? { secondaryUrl } : {}),
    username,
    pin: pin ?? '',
    connectTimeoutMs: timeoutMs,
    responseTimeoutMs: timeoutMs,
    defaultCountry: values.country ?? env.MESSENGER_COUNTRY,
    ...(values.ca !== undefined ? { ca: await readText(values.ca, '--ca') } : {}),
  };
}

// ------------------------------------------------------------------ send

async function recipients(values: Values): Promise<string[]> {
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

async function cmdSend(client: GatewayClient, values: Values, io: CliIO, json: boolean): Promise<number> {
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

async function cmdSendMms(client: GatewayClient, values: Values, io: CliIO, json: boolean): Promise<number> {
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
    if (!['0', '1', '2'].includes(values.smil)) throw new UsageError('--smil takes 0, 1 or 2');
    req.addSmil = Number(values.smil) as 0 | 1 | 2;
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

// ------------------------------------------------------------------ child accounts

async function cmdChild(
  client: GatewayClient,
  args: string[],
  values: Values,
  io: CliIO,
  json: boolean,
): Promise<number> {
  const [sub, target] = args;
  switch (sub) {
    case 'create': {
      const { type, email, 'country-code': cc, mobile } = values;
      if (type === undefined || email === undefined || cc === undefined || mobile === undefined) {
        throw new UsageError(
          'child create needs --type TRANSFER|SHARED --email E --country-code CC --mobile N',
        );
      }
      const req: ChildAccountRequest = {
        type: type as ChildAccountType,
        email,
        telephoneCountryCode: cc,
        mobileNumber: mobile,
      };
      if (values['given-name'] !== undefined) req.givenName = values['given-name'];
      if (values['family-name'] !== undefined) req.familyName = values['family-name'];
      if (values.company !== undefined) req.companyName = values.company;
      const r = await client.createChildAccount(req);
      return printResult(io, json, r, (v) => `created child account ${v.username}\nPIN: ${v.pin}`);
    }
    case 'delete': {
      if (target === undefined) throw new UsageError('child delete needs the child username');
      const r = await client.deleteChildAccount(target);
      return printResult(io, json, r, () => `deleted child account ${target}`);
    }
    case 'transfer': {
      if (target === undefined) throw new UsageError('child transfer needs the target username');
      if ((values.amount === undefined) === (values.messages === undefined)) {
        throw new UsageError('child transfer needs exactly one of --amount 10.00 or --messages N');
      }
      let r: Result<null>;
      if (values.amount !== undefined) r = await client.transferFunds(target, { currency: values.amount });
      else {
        const n = Number(values.messages);
        if (!Number.isInteger(n) || n < 1) throw new UsageError('--messages takes a positive whole number');
        r = await client.transferFunds(target, { messages: n });
      }
      return printResult(io, json, r, () => `transferred to ${target}`);
    }
    default:
      throw new UsageError('child takes create, delete or transfer');
  }
}

// ------------------------------------------------------------------ output

function printResult<T>(io: CliIO, json: boolean, r: Result<T>, show: (value: T) => string): number {
  if (json) io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  if (r.outcome === 'ok') {
    if (!json) io.stdout.write(`${show(r.value)}\n`);
    return EXIT.ok;
  }
  if (r.outcome === 'rejected') {
    io.stderr.write(`rejected by the gateway (${r.code}): ${r.reason}\n`);
    return EXIT.failed;
  }
  if (r.outcome === 'unsent') {
    io.stderr.write(`not sent: ${r.reason}\n`);
    return EXIT.failed;
  }
  io.stderr.write(`UNKNOWN: ${r.reason}\n`);
  return EXIT.unknown;
}

function exitFor(result: SendResult): number {
  return result.outcome === 'ok' ? EXIT.ok : result.outcome === 'unknown' ? EXIT.unknown : EXIT.failed;
}

function printSend(io: CliIO, json: boolean, result: SendResult): number {
  if (json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return exitFor(result);
  }
  io.stdout.write(formatTable(result.recipients));
  const c = result.counts;
  const parts = [
    `${c.accepted} accepted`,
    `${c.rejected} rejected`,
    `${c['not-sent']} not sent`,
    `${c.unknown} unknown`,
  ];
  io.stdout.write(
    `\n${result.recipients.length} recipients in ${result.requests} request${result.requests === 1 ? '' : 's'}: ${parts.join(', ')}` +
      (result.duplicatesRemoved > 0 ? ` (${result.duplicatesRemoved} duplicates removed)` : '') +
      (result.libraryNumber !== undefined ? `; library number ${result.libraryNumber}` : '') +
      '\n',
  );
  if (result.error !== undefined) {
    io.stderr.write(
      `error in request ${result.error.request}: ${result.error.message}${result.error.code !== undefined ? ` (report ${result.error.code})` : ''}\n`,
    );
  }
  if (result.cancelled) io.stderr.write('cancelled: the rest was not sent\n');
  if (c.unknown > 0) {
    io.stderr.write(
      'UNKNOWN: some messages may or may not have been sent; they were not sent again. Check before resending.\n',
    );
  }
  return exitFor(result);
}

/** One row per recipient; a run of identical results (e.g. 350 × invalid login) is one line. */
export function formatTable(rows: readonly RecipientResult[]): string {
  const lines: string[][] = [['NUMBER', 'STATUS', 'REPORT', 'MESSAGE ID', 'TEXT']];
  for (let i = 0; i < rows.length;) {
    const row = rows[i]!;
    let j = i + 1;
    if (row.messageIdentifier === undefined) {
      while (j < rows.length && sameOutcome(rows[j]!, row)) j++;
    }
    const more = j - i - 1;
    lines.push([
      more > 0 ? `${row.number} +${more} more` : row.number,
      row.status,
      row.report ?? '',
      row.messageIdentifier ?? '',
      row.text,
    ]);
    i = j;
  }
  const widths = lines[0]!.map((_, col) => Math.max(...lines.map((l) => (l[col] ?? '').length)));
  return (
    lines
      .map((l) =>
        l.map((cell, col) => (col === l.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  '),
      )
      .join('\n') + '\n'
  );
}

function sameOutcome(a: RecipientResult, b: RecipientResult): boolean {
  return (
    a.messageIdentifier === undefined && a.status === b.status && a.report === b.report && a.text === b.text
  );
}

function progressBar(io: CliIO, json: boolean, total: number): { onProgress?: (p: Progress) => void } {
  if (json || total <= 350 || io.stderr.isTTY !== true) return {};
  return {
    onProgress: (p) => {
      const width = 30;
      const filled = Math.round((p.done / Math.max(p.total, 1)) * width);
      io.stderr.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} recipients, ${p.requests} requests`,
      );
      if (p.done >= p.total) io.stderr.write('\n');
    },
  };
}

// ------------------------------------------------------------------ files and prompt

async function readText(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(err as Error).message}`);
  }
}

async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    throw new UsageError(`--file: cannot read ${path}: ${(err as Error).message}`);
  }
}

/** Hidden PIN prompt on the terminal: the typed characters are not echoed. */
export async function promptHidden(question: string): Promise<string | undefined> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  let muted = false;
  out._writeToOutput = (s: string) => {
    if (!muted) process.stderr.write(s);
  };
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, (answer) => resolve(answer));
      muted = true;
    });
  } finally {
    muted = false;
    process.stderr.write('\n');
    rl.close();
  }
}

/** Entry point of `npm run cli` and of bin/messenger.js. */
export async function run(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), process.env, {
    stdout: process.stdout,
    stderr: process.stderr,
    promptPin: () => promptHidden('PIN: '),
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
