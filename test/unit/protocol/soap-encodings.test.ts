// The encoding rules of protocol/soap/xml-encoding.ts (issue 24, item 2): byte order mark, then the
// HTTP charset, then the XML declaration, then UTF-8; the same size limit on the bytes as sent; bytes
// fed one at a time decode as a whole document does.
import { describe, expect, it } from 'vitest';
import { createResponseStream, parseResponseEnvelope } from '../../../protocol/soap/envelope.ts';
import { SoapParseError } from '../../../protocol/soap/errors.ts';
import { charsetOf, sniffEncoding } from '../../../protocol/soap/xml-encoding.ts';

const ns = 'http://www.csoft.co.uk/dtd/sendsms5.xsd';
const answer = (encoding: string | null, text: string): string =>
  `${encoding === null ? '' : `<?xml version="1.0" encoding="${encoding}"?>`}` +
  '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>' +
  `<m:MobileMessengerVersionResponse xmlns:m="${ns}"><Version>${text}</Version><ReleaseNotice>n</ReleaseNotice>` +
  '<DownloadURL>u</DownloadURL><ReleaseDate>2026-10-01T12:00:00Z</ReleaseDate></m:MobileMessengerVersionResponse>' +
  '</s:Body></s:Envelope>';

const version = (bytes: Uint8Array, charset?: string): string =>
  parseResponseEnvelope('MobileMessengerVersion', bytes, { charset }).Version;

describe('declared encodings', () => {
  it('reads ISO-8859-1, windows-1252 and UTF-16 as declared', () => {
    expect(version(Buffer.from(answer('ISO-8859-1', 'Grüße'), 'latin1'))).toBe('Grüße');
    expect(version(Buffer.from(answer('iso-8859-1', '\u0080'), 'latin1'))).toBe('\u0080'); // a C1 control, not €
    expect(version(Buffer.from(answer('windows-1252', '\u0080'), 'latin1'))).toBe('€');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(answer('UTF-16', 'Grüße'), 'utf16le')]);
    expect(version(le)).toBe('Grüße');
    const be = Buffer.from(answer('UTF-16', 'Grüße'), 'utf16le').swap16(); // no BOM: the first "<" tells
    expect(version(be)).toBe('Grüße');
    expect(version(Buffer.from(answer(null, 'Grüße'), 'utf8'))).toBe('Grüße');
  });

  it('the HTTP charset wins over the declaration; a BOM over both', () => {
    expect(version(Buffer.from(answer('utf-8', 'Grüße'), 'latin1'), 'ISO-8859-1')).toBe('Grüße');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(answer('ISO-8859-1', 'Grüße'))]);
    expect(version(bom, 'windows-1252')).toBe('Grüße');
    expect(charsetOf('text/xml; charset="ISO-8859-1"')).toBe('ISO-8859-1');
    expect(charsetOf('application/soap+xml;action="x";charset=utf-16')).toBe('utf-16');
    expect(charsetOf('text/xml')).toBeUndefined();
  });

  it('refuses what it does not read, and bytes that are not the declared encoding', () => {
    expect(() => version(Buffer.from(answer('Shift_JIS', 'x')))).toThrow(/Shift_JIS.*only UTF-8, UTF-16/);
    expect(() => version(Buffer.from(answer(null, 'x')), 'koi8-r')).toThrow(SoapParseError);
    expect(() => version(Buffer.from(answer('UTF-8', 'Grüße'), 'latin1'))).toThrow(/not valid UTF-8/);
    expect(() => version(Buffer.from(answer('UTF-16', 'x'), 'utf8'))).toThrow(/single bytes/);
  });

  it('fed one byte at a time, and within the same byte limit', () => {
    const bytes = Buffer.from(answer('ISO-8859-1', 'Grüße'), 'latin1');
    const stream = createResponseStream('MobileMessengerVersion');
    for (const b of bytes) stream.write(Uint8Array.of(b));
    expect(stream.end().response.Version).toBe('Grüße');
    expect(() =>
      parseResponseEnvelope('MobileMessengerVersion', bytes, { maxBytes: bytes.length - 1 }),
    ).toThrow(/larger than the limit/);
    expect(sniffEncoding(Buffer.from('<?xml version="1.0" encod'), undefined, false)).toBe('more');
  });
});
