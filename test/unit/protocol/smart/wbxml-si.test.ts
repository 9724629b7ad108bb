import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../../../protocol/smart/bytes.ts';
import {
  decodeSi,
  decodeSiDate,
  encodeSi,
  encodeSiDate,
  parseSiAction,
} from '../../../../protocol/smart/wbxml-si.ts';
import type { ServiceIndication } from '../../../../protocol/smart/wbxml-si.ts';
import { decodeWspPush, encodeWspPush } from '../../../../protocol/smart/wsp-push.ts';

const ascii = (s: string): string => bytesToHex(new TextEncoder().encode(s));

/** Runs libwbxml's wbxml2xml on the bytes and returns the XML text. */
function wbxml2xml(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'si-'));
  try {
    writeFileSync(join(dir, 'in.wbxml'), bytes);
    execFileSync('/usr/bin/wbxml2xml', ['-o', join(dir, 'out.xml'), join(dir, 'in.wbxml')], {
      stdio: 'pipe',
    });
    return readFileSync(join(dir, 'out.xml'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: true,
  parseTagValue: false,
  parseAttributeValue: false,
});

describe('WBXML Service Indication', () => {
  it('encodes the example of the SI specification byte for byte', () => {
    const si: ServiceIndication = {
      href: 'http://www.xyz.com/email/123/abc.wml',
      created: '1999-06-25T15:23:15Z',
      expires: '1999-06-30T00:00:00Z',
      text: 'You have 4 new emails',
    };
    const expected =
      '0205 6A00 45 C6 0D 03' +
      ascii('xyz') +
      '00 85 03' +
      ascii('email/123/abc.wml') +
      '00' +
      '0A C3 07 1999062515 2315' +
      '10 C3 04 19990630' +
      '01' +
      '03' +
      ascii('You have 4 new emails') +
      '00 01 01';
    expect(bytesToHex(encodeSi(si))).toBe(bytesToHex(hexToBytes(expected)));
    expect(decodeSi(hexToBytes(expected))).toEqual(si);
  });

  it('packs dates as BCD without trailing zero octets', () => {
    expect(bytesToHex(encodeSiDate('2026-11-22T07:30:00'))).toBe('202611220730');
    expect(bytesToHex(encodeSiDate('2026-01-01T00:00:00Z'))).toBe('20260101');
    expect(decodeSiDate(hexToBytes('20260101'))).toBe('2026-01-01T00:00:00Z');
    expect(() => encodeSiDate('22/11/2026')).toThrow(/YYYY-MM-DD/);
  });

  it('round-trips every attribute, https prefixes, actions and info items', () => {
    const cases: ServiceIndication[] = [
      { href: 'https://www.example.org/a.org/b', siId: 'id-1', action: 'delete' },
      { href: 'https://shop.example.net/', action: 'signal-none', text: 'Sale — 50%' },
      { href: 'ftp://files.example.edu/x', info: [{ class: 'note', text: 'more' }, { class: 'empty' }] },
    ];
    for (const si of cases) expect(decodeSi(encodeSi(si))).toEqual(si);
  });

  it('reads strings from the string table (STR_T) as other encoders write them', () => {
    const bytes = hexToBytes(
      '02056A0B' + ascii('xyz.com') + '00' + ascii('hi') + '00' + '45C60C830011830801' + '830801' + '01',
    );
    expect(decodeSi(bytes)).toEqual({ href: 'http://xyz.com', siId: 'hi', text: 'hi' });
    expect(() => decodeSi(hexToBytes('02056A0100' + '45860C830901' + '01'))).toThrow(
      /string table reference 9/,
    );
  });

  it('refuses malformed WBXML with the position of the problem', () => {
    expect(() => decodeSi(hexToBytes('02056A0045C60D03787978'))).toThrow(/unterminated|end of WBXML/);
    expect(() => decodeSi(hexToBytes('020F6A0045'))).toThrow(/public id/);
    expect(() => decodeSi(hexToBytes('02056A004501'))).toThrow(/no href/);
  });

  it.skipIf(!existsSync('/usr/bin/wbxml2xml'))('libwbxml decodes our bytes to the expected SI XML', () => {
    const si: ServiceIndication = {
      href: 'http://www.example.com/news?a=1&b=2',
      siId: 'news-42',
      created: '2026-11-22T07:30:00Z',
      expires: '2026-12-01T00:00:00Z',
      action: 'signal-high',
      text: 'Breaking <news> & more — ünïcode',
      info: [{ class: 'topic', text: 'world' }],
    };
    const xml = wbxml2xml(encodeSi(si));
    expect(xml).toContain('<!DOCTYPE si PUBLIC "-//WAPFORUM//DTD SI 1.0//EN"');
    const doc = parser.parse(xml) as {
      si: { indication: Record<string, string>; info: { item: Record<string, string> } };
    };
    expect(doc.si.indication).toEqual({
      href: 'http://www.example.com/news?a=1&b=2',
      'si-id': 'news-42',
      created: '2026-11-22T07:30:00Z',
      'si-expires': '2026-12-01T00:00:00Z',
      action: 'signal-high',
      '#text': 'Breaking <news> & more — ünïcode',
    });
    expect(doc.si.info.item).toEqual({ class: 'topic', '#text': 'world' });
  });
  it.skipIf(!existsSync('/usr/bin/wbxml2xml'))(
    'libwbxml agrees on https prefixes, .org/.net/.edu tokens, actions and empty items',
    () => {
      const cases: ServiceIndication[] = [
        { href: 'https://www.example.org/a.org/b', siId: 'id-1', action: 'delete' },
        { href: 'https://shop.example.net/', action: 'signal-none', text: 'Sale — 50%' },
        { href: 'ftp://files.example.edu/x', info: [{ class: 'note', text: 'more' }, { class: 'empty' }] },
        { href: 'http://a.com/', action: 'signal-low', created: '2026-01-01T00:00:00Z' },
      ];
      for (const si of cases) {
        const doc = parser.parse(wbxml2xml(encodeSi(si))) as {
          si: { indication: Record<string, string> | string; info?: { item: unknown } };
        };
        const ind = typeof doc.si.indication === 'string' ? {} : doc.si.indication;
        const expected: Record<string, string> = { href: si.href };
        if (si.siId) expected['si-id'] = si.siId;
        if (si.created) expected.created = si.created;
        if (si.action) expected.action = si.action;
        if (si.text) expected['#text'] = si.text;
        expect(ind, si.href).toEqual(expected);
        if (si.info)
          expect(doc.si.info?.item).toEqual([{ class: 'note', '#text': 'more' }, { class: 'empty' }]);
      }
    },
  );
});

describe('WSP push PDU', () => {
  it('carries application/vnd.wap.sic as 0xAE with the UTF-8 charset', () => {
    const body = Uint8Array.of(1, 2, 3);
    const pdu = encodeWspPush({
      transactionId: 1,
      contentType: 'application/vnd.wap.sic',
      charset: 106,
      body,
    });
    expect(bytesToHex(pdu)).toBe('0106' + '04' + '03AE81EA' + '010203');
    expect(decodeWspPush(pdu)).toEqual({
      transactionId: 1,
      contentType: 'application/vnd.wap.sic',
      charset: 106,
      body,
    });
  });

  it('carries MMS notifications as 0xBE with X-Wap-Application-Id mms.ua', () => {
    const pdu = encodeWspPush({
      transactionId: 7,
      contentType: 'application/vnd.wap.mms-message',
      applicationId: 4,
      body: Uint8Array.of(0x8c, 0x82),
    });
    expect(bytesToHex(pdu)).toBe('0706' + '03' + 'BEAF84' + '8C82');
    expect(decodeWspPush(pdu)).toMatchObject({
      contentType: 'application/vnd.wap.mms-message',
      applicationId: 4,
    });
  });

  it('keeps unknown content types as text and refuses non-push PDUs', () => {
    const pdu = encodeWspPush({ transactionId: 0, contentType: 'text/x-vcard', body: new Uint8Array(0) });
    expect(decodeWspPush(pdu).contentType).toBe('text/x-vcard');
    expect(() => decodeWspPush(Uint8Array.of(1, 7, 0))).toThrow(/not Push/);
  });
});

describe('si-action field', () => {
  it('accepts the form names and the SOAP spelling signal-delete', () => {
    expect(parseSiAction('signal-high')).toBe('signal-high');
    expect(parseSiAction('signal-delete')).toBe('delete');
    expect(parseSiAction('DELETE')).toBe('delete');
    expect(parseSiAction('loud')).toBeUndefined();
  });
});
