// Safe XML reading and text escaping for the SOAP codec, on top of fast-xml-parser.
//
// Safety rules (DESIGN.md "XML"): the document is size-checked before it is decoded or parsed; any
// DOCTYPE or ENTITY declaration is refused outright (no XXE, no entity expansion, no billion laughs);
// fast-xml-parser runs with processEntities: false, so it never expands anything itself.
//
// Because entity processing is off, the parser hands back text with its references untouched. The
// small decoder below resolves exactly what XML 1.0 defines without a DTD (the five predefined
// entities and numeric character references, section 4.6) and normalises line ends (section 2.11);
// any other reference is an error, as an undeclared entity is in XML. CDATA sections are kept raw.
// The escaper is hand-written for the same reason: it must also write CR as &#13; (a raw CR would be
// normalised away by the receiving parser) and refuse characters XML 1.0 cannot carry at all.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { SoapParseError } from './errors.ts';
import { XSI_NAMESPACE } from './namespaces.ts';

/** Default largest SOAP message accepted by the parsers, in bytes (UTF-8). */
export const SOAP_MAX_BYTES = 4 * 1024 * 1024;

export interface XmlElement {
  /** qualified name as written, e.g. "soap:Body" */
  readonly name: string;
  /** local part, e.g. "Body" */
  readonly local: string;
  /** namespace URI, '' when the element is in no namespace */
  readonly ns: string;
  /** attributes by qualified name, values decoded; namespace declarations included */
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: ReadonlyArray<XmlElement>;
  /** all character data directly inside the element (text and CDATA, in order), decoded */
  readonly text: string;
  /** xsi:nil="true" */
  readonly nil: boolean;
}

const parser = new XMLParser({
  preserveOrder: true,
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  removeNSPrefix: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
});

const DOCTYPE_OR_ENTITY = /<!\s*(?:DOCTYPE|ENTITY)/i;

/** UTF-8 length of a string without allocating its encoding. */
function utf8Length(text: string): number {
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

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9A-Fa-f]{1,6});|#([0-9]{1,7});|(amp|lt|gt|quot|apos);)?/g;

/** Decode character data as written in a document (not CDATA): line ends, then references. */
export function decodeXmlText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(REFERENCE, (match, hex?: string, dec?: string, named?: string) => {
      if (named !== undefined) return PREDEFINED[named] ?? match;
      if (hex === undefined && dec === undefined) {
        throw new SoapParseError('reference to an undeclared entity or a bare "&" in text');
      }
      const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec ?? '', 10);
      if (!isXmlChar(code)) throw new SoapParseError(`character reference ${match} is not an XML character`);
      return String.fromCodePoint(code);
    });
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

type FxpNode = Record<string, unknown>;

function isRecord(value: unknown): value is FxpNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function splitQName(qname: string): { prefix: string; local: string } {
  const colon = qname.indexOf(':');
  return colon < 0
    ? { prefix: '', local: qname }
    : { prefix: qname.slice(0, colon), local: qname.slice(colon + 1) };
}

function toElement(tag: string, node: FxpNode, scope: ReadonlyMap<string, string>): XmlElement {
  const rawAttrs = isRecord(node[':@']) ? node[':@'] : {};
  const attrs: Record<string, string> = {};
  let inner: Map<string, string> | undefined;
  for (const [name, value] of Object.entries(rawAttrs)) {
    // Attribute value normalisation (XML 1.0 3.3.3): literal white space becomes a space.
    const decoded = decodeXmlText(String(value).replace(/[\t\n\r]/g, ' '));
    attrs[name] = decoded;
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      inner ??= new Map(scope);
      inner.set(name === 'xmlns' ? '' : name.slice(6), decoded);
    }
  }
  const ns = inner ?? scope;
  const { prefix, local } = splitQName(tag);
  const uri = ns.get(prefix);
  if (uri === undefined && prefix !== '')
    throw new SoapParseError(`undeclared namespace prefix "${prefix}" on <${tag}>`);

  let nil = false;
  for (const [name, value] of Object.entries(attrs)) {
    const q = splitQName(name);
    if (q.local === 'nil' && q.prefix !== '' && q.prefix !== 'xmlns' && ns.get(q.prefix) === XSI_NAMESPACE) {
      nil = value.trim() === 'true' || value.trim() === '1';
    }
  }

  const children: XmlElement[] = [];
  let text = '';
  const content = node[tag];
  for (const child of Array.isArray(content) ? content : []) {
    if (!isRecord(child)) continue;
    const childTag = Object.keys(child).find((key) => key !== ':@');
    if (childTag === undefined || childTag === '#comment') continue;
    if (childTag === '#text') text += decodeXmlText(String(child['#text']));
    else if (childTag === '#cdata') {
      const parts = child['#cdata'];
      for (const part of Array.isArray(parts) ? parts : []) {
        if (isRecord(part)) text += String(part['#text'] ?? '').replace(/\r\n?/g, '\n');
      }
    } else children.push(toElement(childTag, child, ns));
  }
  return { name: tag, local, ns: uri ?? '', attrs, children, text, nil };
}

/**
 * Read a whole XML document into an element tree with resolved namespaces.
 * Throws SoapParseError when it is too large, not UTF-8, has a DOCTYPE/ENTITY, or is not well-formed.
 */
export function readXml(input: string | Uint8Array, maxBytes: number = SOAP_MAX_BYTES): XmlElement {
  let xml: string;
  if (typeof input === 'string') {
    if (input.length > maxBytes || utf8Length(input) > maxBytes) {
      throw new SoapParseError(`message is larger than the limit of ${maxBytes} bytes`);
    }
    xml = input;
  } else {
    if (input.byteLength > maxBytes)
      throw new SoapParseError(`message is larger than the limit of ${maxBytes} bytes`);
    try {
      xml = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new SoapParseError('message is not valid UTF-8');
    }
  }
  if (xml.charCodeAt(0) === 0xfeff) xml = xml.slice(1);
  if (DOCTYPE_OR_ENTITY.test(xml)) {
    throw new SoapParseError('DOCTYPE and ENTITY declarations are not allowed in SOAP messages');
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new SoapParseError(`malformed XML: ${valid.err.msg}`, {
      line: valid.err.line,
      column: valid.err.col,
    });
  }
  let nodes: unknown;
  try {
    nodes = parser.parse(xml);
  } catch (error) {
    throw new SoapParseError(`malformed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const roots: XmlElement[] = [];
  const scope = new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]);
  for (const node of Array.isArray(nodes) ? nodes : []) {
    if (!isRecord(node)) continue;
    const tag = Object.keys(node).find((key) => key !== ':@');
    if (tag === undefined || tag === '#comment') continue;
    if (tag === '#text') {
      if (String(node['#text']).trim() !== '') throw new SoapParseError('text outside the document element');
      continue;
    }
    roots.push(toElement(tag, node, scope));
  }
  const [root, ...more] = roots;
  if (root === undefined) throw new SoapParseError('no document element');
  if (more.length > 0) throw new SoapParseError('more than one document element');
  return root;
}
