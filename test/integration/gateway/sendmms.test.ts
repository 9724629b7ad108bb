// /webservices/http/sendmms over real HTTP: every content type of spec 2.4, the PDUs the network got
// for it (decoded with protocol/smart), library numbers (public, private, other accounts' refused),
// uploads with their new LibraryNumber, content adaption, ZIP → MMS, the walled-garden rule, and
// bad input answered with a report and nothing charged or stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { Jimp } from 'jimp';
import { decodeSubmitPdu, SMART_PORTS } from '../../../protocol/smart/sms-submit.ts';
import { encodeGsm7, packSeptets } from '../../../protocol/sms.ts';
import { bytesToHex, hexToBytes } from '../../../protocol/smart/bytes.ts';
import { decodeOtaBitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { decodeWspPush } from '../../../protocol/smart/wsp-push.ts';
import { decodeSi } from '../../../protocol/smart/wbxml-si.ts';
import { decodeMmsNotification } from '../../../protocol/smart/mms-notification.ts';
import { decodeOperatorLogo } from '../../../protocol/smart/operator-logo.ts';
import { decodeNokiaRingtone } from '../../../protocol/smart/nokia-ringtone.ts';
import { decodePictureMessage } from '../../../protocol/smart/picture-message.ts';
import { decodeMms } from '../../../gateway/library/mms.ts';
import { decodeWbmp } from '../../../gateway/library/adapt.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ sandbox: true, credit: '50.00' });
});
afterAll(async () => {
  await gw.close();
});

interface Pdu {
  MessageIdentifier: string;
  recipient: string;
  part: number;
  parts: number;
  dcs: number;
  udh: string;
  userData: string;
  pdu: string;
  summary: Record<string, unknown>;
}

async function sendmms(fields: Record<string, string>, creds = { username: gw.username, pin: gw.pin }) {
  const res = await postForm(gw.url, '/webservices/http/sendmms', {
    Username: creds.username,
    PIN: creds.pin,
    ResponseFormat: '3',
    ...fields,
  });
  expect(res.status).toBe(200);
  const p = new URLSearchParams(res.body);
  return {
    body: res.body,
    ids: (p.get('MessageIdentifier') ?? '').split(','),
    reports: (p.get('Report') ?? '').split(','),
    text: p.get('Text') ?? '',
    libraryNumber: p.get('LibraryNumber'),
  };
}

async function pdusOf(id: string): Promise<Pdu[]> {
  return (await (await fetch(`${gw.url}/sandbox/outbound?messageIdentifier=${id}`)).json()) as Pdu[];
}

/** The 8-bit payload of a (possibly concatenated) smart message, and its destination port. */
async function payloadOf(id: string): Promise<{ port: number | undefined; data: Uint8Array; dcs: number }> {
  const pdus = await pdusOf(id);
  expect(pdus.length).toBeGreaterThan(0);
  const decoded = pdus.map((p) => decodeSubmitPdu(p.pdu));
  const data = decoded.flatMap((d) => Array.from(d.userData));
  return { port: decoded[0]!.udh.ports?.dest, data: Uint8Array.from(data), dcs: decoded[0]!.dcs };
}

/** The service indication a WAP push carries (WSP push → WBXML SI). */
async function siOf(id: string) {
  const p = await payloadOf(id);
  expect(p.port).toBe(SMART_PORTS.wapPush);
  const push = decodeWspPush(p.data);
  expect(push.contentType).toBe('application/vnd.wap.sic');
  return decodeSi(push.body);
}

function credit(): number {
  return (
    gw.ctx.db.prepare('SELECT credit FROM accounts WHERE id = ?').get(gw.account.id) as { credit: number }
  ).credit;
}
function counts() {
  const n = (sql: string) => (gw.ctx.db.prepare(sql).get() as { n: number }).n;
  return {
    credit: credit(),
    messages: n('SELECT COUNT(*) AS n FROM messages'),
    library: n('SELECT COUNT(*) AS n FROM library_files'),
    delivered: n('SELECT COUNT(*) AS n FROM delivered_content'),
  };
}

describe('smart messages', () => {
  it('ringtone from RTTTL text goes to port 5505 as 8-bit data', async () => {
    const r = await sendmms({
      SendTo: '447700900501',
      PhoneMake: 'Nokia',
      Ringtone: 'Test:d=4,o=5,b=120:c,e,g,c6',
    });
    expect(r.reports).toEqual(['-3']);
    const p = await payloadOf(r.ids[0]!);
    expect(p.port).toBe(SMART_PORTS.ringtone);
    expect(Array.from(p.data.slice(0, 2))).toEqual([0x02, 0x4a]);
    const song = decodeNokiaRingtone(p.data);
    expect(song.notes.filter((n) => n.pitch !== 'p').map((n) => n.pitch)).toEqual(['c', 'e', 'g', 'c']);
  });

  it('ringtone by public library number and hex-encoded RTTTL', async () => {
    const lib = await sendmms({ SendTo: '447700900502', PhoneMake: 'Nokia', Ringtone: '30000' });
    expect(lib.reports).toEqual(['-3']);
    expect((await payloadOf(lib.ids[0]!)).port).toBe(SMART_PORTS.ringtone);
    const hexed = bytesToHex(new TextEncoder().encode('Hex:d=4,o=5,b=100:c,d'));
    expect((await sendmms({ SendTo: '447700900503', PhoneMake: 'Nokia', Ringtone: hexed })).reports).toEqual([
      '-3',
    ]);
  });

  it('operator logo carries MCC/MNC and the OTA bitmap to port 5506', async () => {
    const r = await sendmms({
      SendTo: '447700900504',
      PhoneMake: 'Nokia',
      OperatorLogo: '10000',
      MCC: '234',
      MNC: '15',
    });
    expect(r.reports).toEqual(['-3']);
    const p = await payloadOf(r.ids[0]!);
    expect(p.port).toBe(SMART_PORTS.operatorLogo);
    // MCC 234 / MNC 15 in BCD: 32 F4 51
    expect(bytesToHex(p.data).toLowerCase()).toContain('32f451');
    const logo = decodeOperatorLogo(p.data);
    expect(logo).toMatchObject({ mcc: 234, mnc: 15, bitmap: { width: 72, height: 14 } });
  });

  it('group graphic needs PhoneMake=Nokia and goes to port 5507', async () => {
    const bad = await sendmms({ SendTo: '447700900505', PhoneMake: 'Motorola', GroupGraphic: '10002' });
    expect(bad.reports[0]).not.toBe('-3');
    expect(bad.text).toMatch(/Nokia/);
    const r = await sendmms({ SendTo: '447700900505', PhoneMake: 'Nokia', GroupGraphic: '10002' });
    expect(r.reports).toEqual(['-3']);
    expect((await payloadOf(r.ids[0]!)).port).toBe(SMART_PORTS.groupGraphic);
  });

  it('picture message from hex OTA bitmap with text goes to port 5514', async () => {
    const pixels = new Uint8Array(72 * 28).map((_, i) => (i % 3 === 0 ? 1 : 0));
    const bitmap = [0x00, 72, 28, 0x01];
    for (let i = 0; i < pixels.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8; j++) b = (b << 1) | (pixels[i + j] ?? 0);
      bitmap.push(b);
    }
    const hex = bytesToHex(Uint8Array.from(bitmap));
    expect(decodeOtaBitmap(hexToBytes(hex)).width).toBe(72);
    const r = await sendmms({
      SendTo: '447700900506',
      PhoneMake: 'Nokia',
      PictureMessage: hex,
      Message: 'Hi there',
    });
    expect(r.reports).toEqual(['-3']);
    const p = await payloadOf(r.ids[0]!);
    expect(p.port).toBe(SMART_PORTS.pictureMessage);
    const pic = decodePictureMessage(p.data);
    expect(pic.text).toBe('Hi there');
    expect(pic.bitmap.pixels.slice(0, 6)).toEqual(Uint8Array.from([1, 0, 0, 1, 0, 0]));
    expect((await pdusOf(r.ids[0]!)).length).toBeGreaterThan(1); // 256+ octets: concatenated
  });

  it('vCard and vCalendar go to ports 9204 and 9205', async () => {
    const vcard = 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;Jane\r\nTEL:+447700900123\r\nEND:VCARD\r\n';
    const c = await sendmms({ SendTo: '447700900507', vCard: vcard });
    expect(c.reports).toEqual(['-3']);
    const cp = await payloadOf(c.ids[0]!);
    expect(cp.port).toBe(SMART_PORTS.vcard);
    expect(new TextDecoder().decode(cp.data)).toContain('N:Doe;Jane');
    const vcal =
      'BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nSUMMARY:Lunch\r\nDTSTART:20260101T120000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    const e = await sendmms({ SendTo: '447700900508', vCal: vcal });
    expect(e.reports).toEqual(['-3']);
    expect((await payloadOf(e.ids[0]!)).port).toBe(SMART_PORTS.vcalendar);
  });

  it('raw SMS-SUBMIT PDU fields are sent as given', async () => {
    const r = await sendmms({
      SendTo: '447700900509',
      SmsSubmitPduDataCodingScheme: 'F5',
      SmsSubmitPduProtocolIdentifier: '00',
      SmsSubmitPduUserDataHeader: '0605041583158A',
      SmsSubmitPduUserData: 'CAFEBABE',
    });
    expect(r.reports).toEqual(['-3']);
    const [pdu] = await pdusOf(r.ids[0]!);
    const d = decodeSubmitPdu(pdu!.pdu);
    expect(d.dcs).toBe(0xf5);
    expect(d.udh.ports).toEqual({ dest: 0x1583, src: 0x158a });
    expect(bytesToHex(d.userData).toLowerCase()).toBe('cafebabe');
  });
});

describe('raw GSM-7 user data without a septet count', () => {
  const send = async (text: string) => {
    const r = await sendmms({
      SendTo: '447700900519',
      SmsSubmitPduDataCodingScheme: '00',
      SmsSubmitPduProtocolIdentifier: '00',
      SmsSubmitPduUserDataHeader: '0605041583158A',
      SmsSubmitPduUserData: bytesToHex(packSeptets(encodeGsm7(text)!)),
    });
    expect(r.reports).toEqual(['-3']);
    const [pdu] = await pdusOf(r.ids[0]!);
    return decodeSubmitPdu(pdu!.pdu);
  };

  it('7 characters in 7 octets: the 7 zero pad bits are not read as a trailing @', async () => {
    const d = await send('1234567');
    expect(d.text).toBe('1234567');
    expect(d.userData.length).toBe(7);
  });

  it('8 characters in 7 octets and 6 in 6 are kept whole', async () => {
    expect((await send('12345678')).text).toBe('12345678');
    expect((await send('@bc@ef')).text).toBe('@bc@ef');
  });
});

describe('the public library', () => {
  it('every seeded item can be sent by its number', async () => {
    const fieldFor: Record<string, (n: string) => Record<string, string>> = {
      'operator-logo': (n) => ({ OperatorLogo: n, MCC: '234', MNC: '10', PhoneMake: 'Nokia' }),
      'group-graphic': (n) => ({ GroupGraphic: n, PhoneMake: 'Nokia' }),
      picture: (n) => ({ PictureMessage: n, PhoneMake: 'Nokia' }),
      ringtone: (n) => ({ Ringtone: n, PhoneMake: 'Nokia' }),
      mms: (n) => ({ MMSFileMMS: n }),
      wap: (n) => ({ MMSFileWAP: n }),
    };
    const seeded = gw.ctx.db
      .prepare('SELECT number, kind FROM library_files WHERE owner_account_id IS NULL')
      .all() as Array<{ number: number; kind: string }>;
    expect(seeded.length).toBeGreaterThanOrEqual(10);
    for (const item of seeded) {
      const r = await sendmms({ SendTo: '447700900530', ...fieldFor[item.kind]!(String(item.number)) });
      expect(r.reports, `${item.kind} ${item.number}: ${r.text}`).toEqual(['-3']);
    }
  });
});

describe('WAP push and MMS', () => {
  it('service indication goes to port 2948 with the href', async () => {
    const r = await sendmms({
      SendTo: '447700900510',
      'si-href': 'http://wap.example/news',
      'si-id': 'news-1',
      'si-action': 'signal-high',
      'si-content': 'Breaking news',
      'si-created': '2026-01-01T10:00:00',
      'si-expires': '2026-01-08T10:00:00',
    });
    expect(r.reports).toEqual(['-3']);
    const p = await payloadOf(r.ids[0]!);
    expect(p.port).toBe(SMART_PORTS.wapPush);
    const si = decodeSi(decodeWspPush(p.data).body);
    expect(si).toMatchObject({
      href: 'http://wap.example/news',
      siId: 'news-1',
      action: 'signal-high',
      text: 'Breaking news',
    });
    expect(si.created).toMatch(/^2026-01-01T10:00:00/);
    expect(si.expires).toMatch(/^2026-01-08T10:00:00/);
  });

  it('WAP push file upload: stored privately, new LibraryNumber, adapted for the handset, fetchable', async () => {
    const png = new Uint8Array(
      await new Jimp({ width: 300, height: 300, color: 0xff0000ff }).getBuffer('image/png'),
    );
    const before = counts();
    const r = await sendmms({
      SendTo: '447700900511',
      PhoneMake: 'Nokia',
      PhoneModel: '3410',
      WAPPushFileName1: 'red.png',
      WAPPushFileData1: bytesToHex(png),
      Message: 'A red square',
    });
    expect(r.reports).toEqual(['-3']);
    const number = Number(r.libraryNumber);
    expect(number).toBeGreaterThanOrEqual(80000);
    expect(number).toBeLessThanOrEqual(89999);
    expect(counts().library).toBe(before.library + 1);
    const row = gw.ctx.db
      .prepare('SELECT owner_account_id, length(bytes) AS n FROM library_files WHERE number = ?')
      .get(number) as { owner_account_id: number; n: number };
    expect(row).toEqual({ owner_account_id: gw.account.id, n: png.length });
    // the handset fetches a WBMP that fits a 3410
    const si = await siOf(r.ids[0]!);
    expect(si.text).toBe('A red square');
    expect(si.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/content\/[0-9a-f]{24}$/);
    const fetched = await fetch(si.href);
    expect(fetched.headers.get('content-type')).toBe('image/vnd.wap.wbmp');
    const wbmp = decodeWbmp(new Uint8Array(await fetched.arrayBuffer()));
    expect(wbmp.width).toBeLessThanOrEqual(96);
    expect(wbmp.height).toBeLessThanOrEqual(65);
    // resend by number works for the owner, not for another account
    expect((await sendmms({ SendTo: '447700900512', MMSFileWAP: String(number) })).reports).toEqual(['-3']);
    const other = gw.addAccount({ credit: '5.00' });
    const refused = await sendmms({ SendTo: '447700900512', MMSFileWAP: String(number) }, other);
    expect(refused.reports[0]).not.toBe('-3');
    expect(refused.text).toMatch(/not available/);
  });

  it('DisableRepurposing=1 delivers the file unchanged', async () => {
    const png = new Uint8Array(
      await new Jimp({ width: 300, height: 200, color: 0x00ff00ff }).getBuffer('image/png'),
    );
    const r = await sendmms({
      SendTo: '447700900513',
      PhoneMake: 'Nokia',
      PhoneModel: '3410',
      WAPPushFileName1: 'g.png',
      WAPPushFileData1: bytesToHex(png),
      DisableRepurposing: '1',
    });
    const url = (await siOf(r.ids[0]!)).href;
    const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
    expect(bytesToHex(body)).toBe(bytesToHex(png));
  });

  it('MMS notification by public library number goes to port 2948 with the content location and size', async () => {
    const r = await sendmms({ SendTo: '447700900514', MMSFileMMS: '80000', Message: 'Welcome' });
    expect(r.reports).toEqual(['-3']);
    const p = await payloadOf(r.ids[0]!);
    expect(p.port).toBe(SMART_PORTS.wapPush);
    const push = decodeWspPush(p.data);
    expect(push.contentType).toBe('application/vnd.wap.mms-message');
    const ind = decodeMmsNotification(push.body);
    expect(ind.subject).toBe('Welcome');
    const url = ind.contentLocation;
    const file = new Uint8Array(await (await fetch(url)).arrayBuffer());
    expect(ind.messageSize).toBe(file.length);
    const mms = decodeMms(file);
    expect(mms.parts.map((x) => x.contentType)).toContain('text/plain');
  });

  it('a ZIP is composed into an MMS in the private library (AddSMIL honoured)', async () => {
    const zip = zipSync({
      'hello.txt': new TextEncoder().encode('Hello MMS'),
      'dot.png': new Uint8Array(
        await new Jimp({ width: 4, height: 4, color: 0x000000ff }).getBuffer('image/png'),
      ),
    });
    const r = await sendmms({
      SendTo: '447700900515',
      MMSNotificationFileName1: 'card.zip',
      MMSNotificationFileData1: bytesToHex(zip),
      AddSMIL: '1',
      Message: 'Card',
    });
    expect(r.reports).toEqual(['-3']);
    const stored = gw.ctx.db
      .prepare('SELECT kind, name, bytes FROM library_files WHERE number = ?')
      .get(Number(r.libraryNumber)) as { kind: string; name: string; bytes: Uint8Array };
    expect(stored).toMatchObject({ kind: 'mms', name: 'card.mms' });
    const mms = decodeMms(new Uint8Array(stored.bytes));
    expect(mms.subject).toBe('Card');
    expect(mms.parts[0]!.contentType).toBe('application/smil');
    const noSmil = await sendmms({
      SendTo: '447700900515',
      MMSNotificationFileName1: 'card2.zip',
      MMSNotificationFileData1: bytesToHex(zip),
      AddSMIL: '2',
    });
    const stored2 = gw.ctx.db
      .prepare('SELECT bytes FROM library_files WHERE number = ?')
      .get(Number(noSmil.libraryNumber)) as { bytes: Uint8Array };
    expect(decodeMms(new Uint8Array(stored2.bytes)).parts.map((x) => x.contentType)).not.toContain(
      'application/smil',
    );
  });

  it('images inside an MMS are adapted for the handset; the library keeps the original', async () => {
    const big = new Uint8Array(
      await new Jimp({ width: 640, height: 480, color: 0x123456ff }).getBuffer('image/png'),
    );
    const zip = zipSync({ 'photo.png': big, 'caption.txt': new TextEncoder().encode('Holiday') });
    const r = await sendmms({
      SendTo: '447700900517',
      PhoneMake: 'Ericsson',
      MMSNotificationFileName1: 'holiday.zip',
      MMSNotificationFileData1: bytesToHex(zip),
    });
    expect(r.reports).toEqual(['-3']);
    const push = decodeWspPush((await payloadOf(r.ids[0]!)).data);
    const ind = decodeMmsNotification(push.body);
    const delivered = decodeMms(new Uint8Array(await (await fetch(ind.contentLocation)).arrayBuffer()));
    const photo = delivered.parts.find((x) => x.name === 'photo.png')!;
    const image = await Jimp.fromBuffer(Buffer.from(photo.bytes));
    expect([image.width, image.height]).toEqual([101, 76]); // Ericsson profile 101x80, aspect kept
    const stored = gw.ctx.db
      .prepare('SELECT bytes FROM library_files WHERE number = ?')
      .get(Number(r.libraryNumber)) as { bytes: Uint8Array };
    const original = decodeMms(new Uint8Array(stored.bytes)).parts.find((x) => x.name === 'photo.png')!;
    expect(original.bytes.length).toBe(big.length);
  });

  it('walled-garden numbers get a WAP push SI instead of an MMS notification unless the rule is disabled', async () => {
    const r = await sendmms({ SendTo: '447999000001,447700900516', MMSFileMMS: '80000', Message: 'Hi' });
    expect(r.reports).toEqual(['-3', '-3']);
    const garden = await pdusOf(r.ids[0]!);
    const normal = await pdusOf(r.ids[1]!);
    expect(garden[0]!.summary['kind']).toBe('wap-push-si');
    expect(normal[0]!.summary['kind']).toBe('mms-notification');
    // the summary carries what a handset decodes from the PDUs
    expect(garden[0]!.summary['content']).toMatchObject({ kind: 'wapPushSi', si: { text: 'Hi' } });
    expect(normal[0]!.summary['content']).toMatchObject({
      kind: 'mmsNotification',
      notification: { subject: 'Hi' },
    });
    const off = await sendmms({ SendTo: '447999000001', MMSFileMMS: '80000', DisableWalledGardenRule: '1' });
    expect((await pdusOf(off.ids[0]!))[0]!.summary['kind']).toBe('mms-notification');
  });
});

describe('bad input: a report, nothing charged, nothing stored', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['no content', { SendTo: '447700900520' }, /content/i],
    [
      'two contents',
      { SendTo: '447700900520', vCard: 'BEGIN:VCARD\r\nEND:VCARD', vCal: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR' },
      /content per request/i,
    ],
    ['ringtone without PhoneMake', { SendTo: '447700900520', Ringtone: 'a:d=4,o=5,b=100:c' }, /PhoneMake/],
    ['bad RTTTL', { SendTo: '447700900520', PhoneMake: 'Nokia', Ringtone: 'not a tune' }, /Ringtone/],
    [
      'logo from the picture range',
      { SendTo: '447700900520', PhoneMake: 'Nokia', OperatorLogo: '20000', MCC: '234', MNC: '15' },
      /OperatorLogo/,
    ],
    ['unknown library number', { SendTo: '447700900520', MMSFileMMS: '89990' }, /not available/],
    ['bad hex upload', { SendTo: '447700900520', WAPPushFileName1: 'a.jpg', WAPPushFileData1: 'zz' }, /hex/],
    [
      'upload name too long',
      { SendTo: '447700900520', WAPPushFileName1: `${'a'.repeat(60)}.jpg`, WAPPushFileData1: '00' },
      /50/,
    ],
    [
      'a .jad that does not point at its .jar',
      {
        SendTo: '447700900520',
        WAPPushFileName1: 'game.jad',
        WAPPushFileData1: bytesToHex(new TextEncoder().encode('MIDlet-Name: Game\n')),
      },
      /MIDlet-Jar-URL/,
    ],
    [
      'not a zip',
      { SendTo: '447700900520', MMSNotificationFileName1: 'x.zip', MMSNotificationFileData1: '00112233' },
      /ZIP/,
    ],
  ];
  for (const [name, fields, text] of cases) {
    it(name, async () => {
      const before = counts();
      const r = await sendmms(fields);
      expect(r.reports[0]).not.toBe('-3');
      expect(r.ids[0]).toBe('-1');
      expect(r.text).toMatch(text);
      expect(counts()).toEqual(before);
    });
  }

  it('invalid login', async () => {
    const r = await sendmms(
      { SendTo: '447700900520', vCard: 'BEGIN:VCARD\r\nEND:VCARD' },
      { username: gw.username, pin: 'wrong' },
    );
    expect(r.reports).toEqual(['2']);
  });

  it('malformed percent-encoding', async () => {
    const res = await postForm(
      gw.url,
      '/webservices/http/sendmms',
      `Username=${gw.username}&PIN=${gw.pin}&ResponseFormat=1&SendTo=447700900520&vCard=%E2%82`,
    );
    expect(res.status).toBe(200);
    expect(new URLSearchParams(res.body).get('Report')).not.toBe('-3');
  });
});
