// Which character encoding an XML document's bytes are in (issue 24, item 2): XML says so itself, and
// a SOAP peer that writes ISO-8859-1 or UTF-16 is as right as one that writes UTF-8. The order is that
// of RFC 7303 section 3 and XML 1.0 appendix F: a byte order mark, else the HTTP charset parameter,
// else the encoding of the XML declaration, else UTF-8. Four encodings are read: UTF-8, UTF-16 (either
// byte order), ISO-8859-1 and windows-1252 (and US-ASCII, read as UTF-8, of which it is a subset);
// any other is refused by name rather than read as something it is not.
// Decoding is Node's (WHATWG TextDecoder, fatal, streaming) except ISO-8859-1, which WHATWG maps to
// windows-1252: ISO-8859-1 is one byte, one code point (latin1 below), and needs no state. No Buffer:
// protocol/ also runs in the renderer.

export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'iso-8859-1' | 'windows-1252';

/** What a document may be in, as said to a peer in an error. */
export const XML_ENCODINGS_READ = 'UTF-8, UTF-16, ISO-8859-1 or windows-1252';

/** Longest XML declaration looked for at the start of a document, in bytes. */
const MAX_DECLARATION = 1024;

const LABELS: Readonly<Record<string, XmlEncoding | 'utf-16'>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'utf-16': 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'iso-8859-1',
  iso_8859_1: 'iso-8859-1',
  'iso_8859-1': 'iso-8859-1',
  iso8859_1: 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
  latin1: 'iso-8859-1',
  l1: 'iso-8859-1',
  'iso-ir-100': 'iso-8859-1',
  cp819: 'iso-8859-1',
  ibm819: 'iso-8859-1',
  csisolatin1: 'iso-8859-1',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'x-cp1252': 'windows-1252',
};

/** The encoding a label names, 'utf-16' when the byte order is left to the document, or undefined. */
export function encodingOfLabel(label: string): XmlEncoding | 'utf-16' | undefined {
  return LABELS[label.trim().toLowerCase()];
}

/** The charset parameter of a Content-Type header value, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const value = m?.[1] ?? m?.[2];
  return value === undefined || value === '' ? undefined : value;
}

export class XmlEncodingError extends Error {}

export interface Sniffed {
  encoding: XmlEncoding;
  /** what the choice rests on, for messages */
  from: 'bom' | 'charset' | 'declaration' | 'default';
}

const startsWith = (b: Uint8Array, ...bytes: number[]): boolean => bytes.every((x, i) => b[i] === x);

/**
 * The encoding of a document from its first bytes and the HTTP charset, or 'more' when more bytes are
 * needed to tell (`final`: there are none). Throws XmlEncodingError for an encoding not read here.
 */
export function sniffEncoding(
  head: Uint8Array,
  charset: string | undefined,
  final: boolean,
): Sniffed | 'more' {
  if (head.length < 5 && !final) return 'more';
  if (startsWith(head, 0xef, 0xbb, 0xbf)) return { encoding: 'utf-8', from: 'bom' };
  if (startsWith(head, 0xff, 0xfe)) return { encoding: 'utf-16le', from: 'bom' };
  if (startsWith(head, 0xfe, 0xff)) return { encoding: 'utf-16be', from: 'bom' };
  const utf16 = startsWith(head, 0x3c, 0x00)
    ? 'utf-16le'
    : startsWith(head, 0x00, 0x3c)
      ? 'utf-16be'
      : undefined;
  if (charset !== undefined) {
    const named = encodingOfLabel(charset);
    if (named === undefined) throw new XmlEncodingError(unsupported(charset, 'the HTTP charset'));
    // UTF-16 without a byte order mark: the order the first character shows, else big-endian (RFC 2781)
    return { encoding: named === 'utf-16' ? (utf16 ?? 'utf-16be') : named, from: 'charset' };
  }
  if (utf16 !== undefined) return { encoding: utf16, from: 'declaration' };
  if (!startsWith(head, 0x3c, 0x3f, 0x78, 0x6d, 0x6c)) return { encoding: 'utf-8', from: 'default' };
  // An ASCII-compatible declaration: read its encoding pseudo-attribute.
  let end = -1;
  for (let i = 5; i + 1 < head.length && i < MAX_DECLARATION; i++)
    if (head[i] === 0x3f && head[i + 1] === 0x3e) {
      end = i;
      break;
    }
  if (end < 0) {
    if (!final && head.length < MAX_DECLARATION) return 'more';
    return { encoding: 'utf-8', from: 'default' }; // not a declaration: the parser says what is wrong
  }
  const declaration = latin1(head.subarray(0, end));
  const m = /\sencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(declaration);
  const label = m?.[1] ?? m?.[2];
  if (label === undefined) return { encoding: 'utf-8', from: 'default' };
  const named = encodingOfLabel(label);
  if (named === undefined) throw new XmlEncodingError(unsupported(label, 'the XML declaration'));
  if (named === 'utf-16' || named === 'utf-16le' || named === 'utf-16be')
    throw new XmlEncodingError(
      `the XML declaration says ${label}, but the document is written in single bytes`,
    );
  return { encoding: named, from: 'declaration' };
}

function unsupported(label: string, where: string): string {
  return `${where} names the encoding "${label.slice(0, 40)}"; only ${XML_ENCODINGS_READ} is read`;
}

/** A streaming decoder for `encoding`: decode(bytes, true) while more follow, decode(empty, false) at the end. */
export function xmlDecoder(encoding: XmlEncoding): { decode(bytes: Uint8Array, stream: boolean): string } {
  if (encoding === 'iso-8859-1') return { decode: (bytes) => latin1(bytes) };
  const decoder = new TextDecoder(encoding, { fatal: true });
  return { decode: (bytes, stream) => decoder.decode(bytes, { stream }) };
}

/** Display name of an encoding, for messages. */
export function encodingName(encoding: XmlEncoding): string {
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'UTF-16' : encoding.toUpperCase();
}

/** ISO-8859-1 bytes as text: each byte is the code point of the same number. */
function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let at = 0; at < bytes.length; at += 8192)
    out += String.fromCharCode(...bytes.subarray(at, Math.min(at + 8192, bytes.length)));
  return out;
}
