// Safe XML reading and text escaping for the SOAP codec. Reading is one streaming pass over saxes
// (a conformant, pure-JS XML 1.0 parser, the one jsdom uses): bytes go in as they arrive, events come
// out, nothing of the document is kept beyond what the consumer keeps.
//
// Safety rules (protocol/soap/README.md, docs/GATEWAY.md), all applied while streaming:
// - size: the bytes fed are counted (UTF-8) and refused past maxBytes, before they are decoded;
// - the encoding the document declares (xml-encoding.ts: BOM, HTTP charset, XML declaration; UTF-8,
//   UTF-16, ISO-8859-1, windows-1252; issue 24), decoded strictly (a fatal streaming TextDecoder: a
//   bad or cut sequence is refused, also across chunks); the size limit counts the bytes as sent;
// - any DOCTYPE or ENTITY declaration is refused outright (no XXE, no entity expansion, no billion
//   laughs); saxes itself never reads a DTD and knows only the five predefined entities;
// - well-formedness as XML 1.0 defines it, including its character rules: a raw control character
//   such as U+001E in text makes the document not well-formed (issue 17, item 14);
// - caps on the number of elements and of attributes, and on nesting, counted as the parser goes, so a
//   large flat document is refused after the first maxElements elements, not after reading it all.
// Errors are SoapParseError with the line and column of the parser.
// The escaper is hand-written: it must also write CR as &#13; (a raw CR would be normalised away by the
// receiving parser) and refuse characters XML 1.0 cannot carry at all.

import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { SoapParseError } from './errors.ts';
import { XSI_NAMESPACE } from './namespaces.ts';
import { encodingName, sniffEncoding, xmlDecoder, XmlEncodingError } from './xml-encoding.ts';
import type { XmlEncoding } from './xml-encoding.ts';

/** Default largest SOAP message accepted by the parsers, in bytes (UTF-8). */
export const SOAP_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Default largest number of elements in one SOAP message, and of attributes (counted apart). The
 * largest request of the interface has under 100 elements; a page of CollectMessages (1,000 messages)
 * under 10,000. A streamed list applies the cap to each of its items instead (reader.ts).
 */
export const SOAP_MAX_ELEMENTS = 20_000;
export const SOAP_MAX_ATTRIBUTES = 20_000;

/** Deepest element nesting accepted. The deepest path of the schema is 8 levels below the Body. */
export const SOAP_MAX_DEPTH = 100;

/** UTF-8 length of a string without allocating its encoding. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** The first character of `text` XML 1.0 cannot carry (even escaped), or undefined. */
export function findIllegalXmlChar(text: string): { index: number; code: number } | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) ?? 0;
    // A lone surrogate comes back from codePointAt as the surrogate itself, which isXmlChar refuses.
    if (!isXmlChar(code)) return { index: i, code };
    if (code > 0xffff) i++;
  }
  return undefined;
}

/** `text` with every character XML 1.0 cannot carry replaced by U+FFFD. */
export function replaceIllegalXmlChars(text: string): string {
  if (findIllegalXmlChar(text) === undefined) return text;
  let out = '';
  // for-of walks code points; a lone surrogate comes out alone and is not an XML character
  for (const ch of text) out += isXmlChar(ch.codePointAt(0) ?? 0) ? ch : '\uFFFD';
  return out;
}

/** Escape element content. The caller has checked findIllegalXmlChar. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;',
  );
}

/** Escape an attribute value (double-quoted). */
export function escapeXmlAttr(text: string): string {
  return text.replace(/[&<>"\r\n\t]/g, (c) =>
    c === '&'
      ? '&amp;'
      : c === '<'
        ? '&lt;'
        : c === '>'
          ? '&gt;'
          : c === '"'
            ? '&quot;'
            : `&#${c.charCodeAt(0)};`,
  );
}

// ---------------------------------------------------------------- streaming reader

/** What the streaming reader reports, in document order. */
export interface XmlSink {
  /** An element starts. `ns` is its namespace URI ('' for none); `nil` is xsi:nil="true". */
  open(local: string, ns: string, name: string, nil: boolean): void;
  /** Character data directly inside the current element (text and CDATA), decoded. */
  text(text: string): void;
  /** The current element ends. */
  close(): void;
}

export interface XmlLimits {
  /** largest input in bytes (UTF-8); Infinity for none (a streamed answer of any size) */
  maxBytes: number;
  maxElements: number;
  maxAttributes: number;
  /** the HTTP charset parameter the document came with, if any (xml-encoding.ts) */
  charset?: string | undefined;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxBytes: SOAP_MAX_BYTES,
  maxElements: SOAP_MAX_ELEMENTS,
  maxAttributes: SOAP_MAX_ATTRIBUTES,
};

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Size of the slices a large input is fed to saxes in (characters or bytes). */
const SLICE = 64 * 1024;

/** A DOCTYPE or ENTITY declaration: refused in every document this project reads. */
export const DOCTYPE_OR_ENTITY = /<!\s*(?:DOCTYPE|ENTITY)/i;
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const NOT_SPACE = /[^ \t\r\n]/;

/** saxes' messages, said the way this codec has always said them. */
function describeSaxesError(message: string): string {
  const text = message.replace(/^\d+:\d+: /, '');
  if (text.startsWith('undefined entity')) return 'malformed XML: reference to an undeclared entity';
  if (text.startsWith('malformed character entity'))
    return 'malformed XML: a character reference that is not an XML character';
  if (text.startsWith('disallowed character.'))
    return 'malformed XML: a character XML 1.0 does not allow (a control character or a lone surrogate)';
  if (text.startsWith('document must contain a root element')) return 'no document element';
  return `malformed XML: ${text.replace(/\.$/, '')}`;
}

/**
 * One pass over a document, fed in chunks: `write(chunk)` as bytes arrive, `end()` at the end. Throws
 * SoapParseError (size, UTF-8, DOCTYPE/ENTITY, well-formedness, caps); the sink may throw too, and the
 * error comes out of write/end. After an error the reader is finished.
 */
export class XmlStreamReader {
  readonly #sink: XmlSink;
  readonly #limits: XmlLimits;
  readonly #parser: SaxesParser;
  /** set once the first bytes tell the encoding; until then they wait in #head */
  #decoder: { decode(bytes: Uint8Array, stream: boolean): string } | undefined;
  #encoding: XmlEncoding = 'utf-8';
  #head: Uint8Array | undefined;
  /** prefix → URI, one map per element that declares namespaces (others share their parent's) */
  #scope = new Map<string, string>([['xml', XML_NAMESPACE]]);
  /** the scopes to restore, with the depth of the element that opened each */
  readonly #saved: Array<{ depth: number; scope: Map<string, string> }> = [];
  #bytes = 0;
  #tail = '';
  #first = true;
  #depth = 0;
  /** an error of the consumer at a close, held back for one step (see the closetag handler) */
  #deferred: unknown;
  /** elements and attributes read so far (the caps; reader.ts reads them for per-item caps) */
  elements = 0;
  attributes = 0;
  /** `attributes` at the previous element: an element without any skips looking at them */
  #attributesBefore = 0;

  constructor(sink: XmlSink, limits: Partial<XmlLimits> = {}) {
    this.#sink = sink;
    this.#limits = { ...DEFAULT_XML_LIMITS, ...limits };
    const parser = new SaxesParser({ xmlns: false, position: true });
    this.#parser = parser;
    parser.on('error', (err) => {
      this.#deferred = undefined; // the document's own error comes first
      throw new SoapParseError(describeSaxesError(err.message), {
        line: parser.line,
        column: parser.column + 1,
      });
    });
    parser.on('doctype', () => {
      throw this.#error('DOCTYPE and ENTITY declarations are not allowed in SOAP messages');
    });
    parser.on('attribute', () => {
      if (++this.attributes > this.#limits.maxAttributes) {
        throw this.#error(`more than ${this.#limits.maxAttributes} attributes`);
      }
    });
    parser.on('opentag', (tag) => this.#open(tag as SaxesTagPlain));
    parser.on('closetag', () => {
      this.#rethrow();
      const top = this.#saved[this.#saved.length - 1];
      if (top !== undefined && top.depth === this.#depth) {
        this.#scope = top.scope;
        this.#saved.pop();
      }
      this.#depth--;
      // saxes reports the close of the open element before it fails a mismatched end tag: hold the
      // consumer's error until it is clear the document itself is well-formed here.
      try {
        this.#sink.close();
      } catch (err) {
        this.#deferred = err;
      }
    });
    parser.on('text', (text) => {
      this.#rethrow();
      if (this.#depth > 0) this.#sink.text(text);
      else if (NOT_SPACE.test(text)) throw this.#error('text outside the document element');
    });
    parser.on('cdata', (text) => {
      this.#rethrow();
      this.#sink.text(text);
    });
  }

  /** Start counting elements and attributes again (reader.ts: each streamed item has its own caps). */
  resetCounts(): void {
    this.elements = 1; // the element being opened
    this.attributes = 0;
    this.#attributesBefore = 0;
  }

  /** Characters read so far (saxes' position): a measure of how much of the input an item took. */
  get position(): number {
    return this.#parser.position;
  }

  #rethrow(): void {
    if (this.#deferred !== undefined) throw this.#deferred;
  }

  #error(message: string): SoapParseError {
    return new SoapParseError(message, { line: this.#parser.line, column: this.#parser.column + 1 });
  }

  write(chunk: Uint8Array | string): void {
    // The size is checked on the whole chunk before any of it is decoded or parsed.
    const max = this.#limits.maxBytes;
    if (max !== Infinity) {
      this.#bytes +=
        typeof chunk !== 'string' ? chunk.byteLength : chunk.length > max ? max + 1 : utf8Length(chunk);
      if (this.#bytes > max) throw new SoapParseError(`message is larger than the limit of ${max} bytes`);
    }
    if (typeof chunk !== 'string' && this.#decoder === undefined) {
      // the first bytes say the encoding (a byte order mark, the HTTP charset, the XML declaration)
      const head = this.#head === undefined ? chunk : concat(this.#head, chunk);
      if (!this.#choose(head, false)) {
        this.#head = head;
        return;
      }
      this.#head = undefined;
      chunk = head;
    }
    // saxes is fastest on chunks of tens of KiB: a whole document goes in as such slices
    for (let at = 0; at < chunk.length; at += SLICE) {
      const slice =
        at === 0 && chunk.length <= SLICE
          ? chunk
          : typeof chunk === 'string'
            ? chunk.slice(at, at + SLICE)
            : chunk.subarray(at, at + SLICE);
      let text = typeof slice === 'string' ? slice : this.#decode(slice, true);
      if (this.#first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text !== '') this.#first = false;
      this.#feed(text);
    }
  }

  end(): void {
    if (this.#decoder === undefined) {
      const head = this.#head ?? new Uint8Array(0);
      this.#head = undefined;
      this.#choose(head, true);
      if (head.length > 0) this.#feed(this.#decode(head, true));
    }
    this.#feed(this.#decode(new Uint8Array(0), false));
    this.#parser.close();
    this.#rethrow();
  }

  /** Picks the decoder once `head` tells the encoding; false while more bytes are needed. */
  #choose(head: Uint8Array, final: boolean): boolean {
    let sniffed;
    try {
      sniffed = sniffEncoding(head, this.#limits.charset, final);
    } catch (err) {
      if (err instanceof XmlEncodingError) throw new SoapParseError(err.message);
      throw err;
    }
    if (sniffed === 'more') return false;
    this.#encoding = sniffed.encoding;
    this.#decoder = xmlDecoder(sniffed.encoding);
    return true;
  }

  #decode(bytes: Uint8Array, stream: boolean): string {
    try {
      return (this.#decoder ?? xmlDecoder('utf-8')).decode(bytes, stream);
    } catch {
      throw new SoapParseError(`message is not valid ${encodingName(this.#encoding)}`);
    }
  }

  #feed(text: string): void {
    if (text === '') return;
    // A declaration may straddle two chunks: look at the seam as well as the chunk.
    if (DOCTYPE_OR_ENTITY.test(text) || DOCTYPE_OR_ENTITY.test(this.#tail + text.slice(0, 16))) {
      throw new SoapParseError('DOCTYPE and ENTITY declarations are not allowed in SOAP messages');
    }
    this.#tail = text.length >= 16 ? text.slice(-16) : (this.#tail + text).slice(-16);
    this.#parser.write(text);
    this.#rethrow();
  }

  #open(tag: SaxesTagPlain): void {
    this.#rethrow();
    if (++this.elements > this.#limits.maxElements) {
      throw this.#error(`more than ${this.#limits.maxElements} elements`);
    }
    if (++this.#depth > SOAP_MAX_DEPTH) throw this.#error(`elements nested deeper than ${SOAP_MAX_DEPTH}`);
    const attrs = tag.attributes;
    let nilValue: string | undefined;
    let nilPrefixes: string[] | undefined;
    const hasAttributes = this.attributes !== this.#attributesBefore;
    this.#attributesBefore = this.attributes;
    if (hasAttributes)
      for (const name in attrs) {
        const value = attrs[name] ?? '';
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (this.#saved[this.#saved.length - 1]?.depth !== this.#depth) {
            this.#saved.push({ depth: this.#depth, scope: this.#scope });
            this.#scope = new Map(this.#scope);
          }
          this.#scope.set(name === 'xmlns' ? '' : name.slice(6), value.trim());
        } else if (name.endsWith(':nil')) {
          (nilPrefixes ??= []).push(name.slice(0, -4));
          nilValue = value.trim();
        }
      }
    const name = tag.name;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const uri = this.#scope.get(prefix);
    if (uri === undefined && prefix !== '') {
      throw this.#error(`undeclared namespace prefix "${prefix}" on <${name}>`);
    }
    let nil = false;
    if (nilPrefixes !== undefined) {
      nil =
        nilPrefixes.some((p) => this.#scope.get(p) === XSI_NAMESPACE) &&
        (nilValue === 'true' || nilValue === '1');
    }
    this.#sink.open(colon < 0 ? name : name.slice(colon + 1), uri ?? '', name, nil);
  }
}
