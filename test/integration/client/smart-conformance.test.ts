// Rich content end to end, checked by decoders that are not ours: each kind is sent through
// GatewayClient.sendMms to the real reference gateway, the PDUs its simulated network made for the
// handset are read from /sandbox/outbound, and python3-gammu (ringtone, operator logo with its
// MCC/MNC, picture message, group graphic) or libwbxml's wbxml2xml (service indication) decode them.
// What they read must be what was sent.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../../main/client/gateway-client.ts';
import type { MmsRequest } from '../../../main/client/gateway-client.ts';
import { bitmapFromRows, encodeOtaBitmap } from '../../../protocol/smart/ota-bitmap.ts';
import { parseRtttl } from '../../../protocol/smart/rtttl.ts';
import { hexToBytes } from '../../../protocol/smart/sms-submit.ts';
import { decodeWspPush } from '../../../protocol/smart/wsp-push.ts';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { gammuAvailable, gammuBitmapRows, gammuDecode } from '../../unit/protocol/smart/gammu.ts';

const WBXML2XML = '/usr/bin/wbxml2xml';

interface OutboundPdu {
  part: number;
  parts: number;
  udh: string;
  userData: string;
  pdu: string;
}

/** A 72-column pattern of '#' (black) and '.' rows, different for each seed. */
function pattern(height: number, seed: number): string[] {
  return Array.from({ length: height }, (_, y) =>
    Array.from({ length: 72 }, (_, x) => ((x * seed + y * 5) % 9 < 3 ? '#' : '.')).join(''),
  );
}

let gw: TestGateway;
let client: GatewayClient;
let next = 0;

beforeAll(async () => {
  gw = await startTestGateway({ credit: '50.00' });
  client = new GatewayClient({ primaryUrl: gw.url, username: gw.username, pin: gw.pin });
});
afterAll(async () => {
  await client?.close();
  await gw?.close();
});

/** Sends `req` to one fresh number and returns the PDUs that handset received, in part order. */
async function sendAndReceive(req: Omit<MmsRequest, 'to'>): Promise<OutboundPdu[]> {
  const to = `4477009007${String(next++).padStart(2, '0')}`;
  const result = await client.sendMms({ ...req, to: [to] });
  expect(result.outcome, JSON.stringify(result.recipients)).toBe('ok');
  const id = result.recipients[0]?.messageIdentifier;
  expect(id).toBeTruthy();
  const res = await fetch(`${gw.url}/sandbox/outbound?messageIdentifier=${id ?? ''}`);
  const pdus = (await res.json()) as OutboundPdu[];
  expect(pdus.length).toBeGreaterThan(0);
  return pdus.sort((a, b) => a.part - b.part);
}

describe.skipIf(!gammuAvailable)('sent through the client, decoded by python-gammu', () => {
  it('a ringtone: gammu reads its name, tempo and every note', async () => {
    const rtttl = 'Fanfare:d=4,o=5,b=180:8c,8e,8g,c6.,p,8g,2c6';
    const pdus = await sendAndReceive({ phoneMake: 'Nokia', content: { type: 'ringtone', ringtone: rtttl } });
    const g = gammuDecode(pdus.map((p) => p.pdu));
    expect(g.messages[0].UDH.Type).toBe('NokiaRingtone');
    const ringtone = g.decoded[0].Entries[0].Ringtone;
    expect(ringtone.Name).toBe('Fanfare');
    const notes = ringtone.Notes as Array<Record<string, unknown>>;
    const song = parseRtttl(rtttl);
    expect(notes).toHaveLength(song.notes.length);
    expect(notes.every((n) => n.Tempo === 180)).toBe(true);
    expect(notes.map((n) => n.Note)).toEqual(['C', 'E', 'G', 'C', 'Pause', 'G', 'C']);
    expect(notes.map((n) => n.Duration)).toEqual(['1_8', '1_8', '1_8', '1_4', '1_4', '1_8', '1_2']);
    expect(notes.map((n) => n.DurationSpec === 'DottedNote')).toEqual(song.notes.map((n) => n.dotted));
    // Octave 5 is gammu's 880 scale, octave 6 its 1760.
    expect(notes.filter((n) => n.Note !== 'Pause').map((n) => n.Scale)).toEqual([
      880, 880, 880, 1760, 880, 1760,
    ]);
  });

  it('an operator logo: gammu reads MCC/MNC 234 15 and the drawn pixels', async () => {
    const rows = pattern(14, 7);
    const pdus = await sendAndReceive({
      phoneMake: 'Nokia',
      content: { type: 'operatorLogo', logo: encodeOtaBitmap(bitmapFromRows(rows)), mcc: 234, mnc: 15 },
    });
    const g = gammuDecode(pdus.map((p) => p.pdu));
    expect(g.messages[0].UDH.Type).toBe('NokiaOperatorLogo');
    const bitmap = g.decoded[0].Entries[0].Bitmap[0];
    expect(bitmap.NetworkCode).toBe('234 15');
    expect(gammuBitmapRows(bitmap)).toEqual(rows);
  });

  it('a picture message of three SMS: gammu links them and reads the text and the picture', async () => {
    const rows = pattern(28, 11);
    const pdus = await sendAndReceive({
      phoneMake: 'Nokia',
      message: 'See you at the harbour',
      content: { type: 'pictureMessage', picture: encodeOtaBitmap(bitmapFromRows(rows)) },
    });
    expect(pdus.length).toBeGreaterThan(1);
    const g = gammuDecode(pdus.map((p) => p.pdu));
    expect(g.decoded).toHaveLength(1);
    const entry = g.decoded[0].Entries[0];
    expect(entry.ID).toBe('NokiaPictureImageLong');
    expect(entry.Bitmap[0].Text).toBe('See you at the harbour');
    expect(gammuBitmapRows(entry.Bitmap[0])).toEqual(rows);
  });

  it('a group graphic: gammu reads a caller logo with the drawn pixels', async () => {
    const rows = pattern(14, 3);
    const pdus = await sendAndReceive({
      phoneMake: 'Nokia',
      content: { type: 'groupGraphic', graphic: encodeOtaBitmap(bitmapFromRows(rows)) },
    });
    const entry = gammuDecode(pdus.map((p) => p.pdu)).decoded[0].Entries[0];
    expect(entry.ID).toBe('NokiaCallerLogo');
    expect(gammuBitmapRows(entry.Bitmap[0])).toEqual(rows);
  });
});

describe.skipIf(!existsSync(WBXML2XML))('sent through the client, decoded by wbxml2xml', () => {
  it('a service indication: libwbxml reads href, si-id, dates, action and text', async () => {
    const pdus = await sendAndReceive({
      content: {
        type: 'serviceIndication',
        href: 'https://news.example.com/today?id=7&lang=en',
        id: 'today-7',
        created: '2026-11-22T08:00:00',
        expires: '2026-11-29T08:00:00',
        action: 'signal-high',
        content: 'Today’s news: 3 new stories',
      },
    });
    // One SMS here; the WSP push (port 2948) carries the SI as WBXML.
    expect(pdus).toHaveLength(1);
    const push = decodeWspPush(hexToBytes(pdus[0]!.userData));
    expect(push.contentType).toBe('application/vnd.wap.sic');
    const dir = mkdtempSync(join(tmpdir(), 'si-conformance-'));
    let xml: string;
    try {
      writeFileSync(join(dir, 'in.wbxml'), push.body);
      execFileSync(WBXML2XML, ['-o', join(dir, 'out.xml'), join(dir, 'in.wbxml')], { stdio: 'pipe' });
      xml = readFileSync(join(dir, 'out.xml'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseTagValue: false,
      parseAttributeValue: false,
    }).parse(xml) as { si: { indication: Record<string, string> } };
    expect(doc.si.indication).toEqual({
      href: 'https://news.example.com/today?id=7&lang=en',
      'si-id': 'today-7',
      created: '2026-11-22T08:00:00Z',
      'si-expires': '2026-11-29T08:00:00Z',
      action: 'signal-high',
      '#text': 'Today’s news: 3 new stories',
    });
  });
});
