// SOAP 1.1 envelopes of the eight operations (spec 4.5): document/literal, the body element is the
// operation name (request) or <Operation>Response (response) in the profile's types namespace, and
// its children are unqualified. Builders write with fast-xml-parser's XMLBuilder in schema order;
// parsers read with the safe reader of xml.ts and type every value by the schema table of schema.ts.
//
// Parsers are tolerant where SOAP stacks differ (any prefix or default namespace on the body element,
// qualified or unqualified children, SOAP 1.1 or 1.2 envelope, whitespace, comments, element order,
// unknown elements) and strict where data would be lost (malformed XML, DOCTYPE, oversize, a value
// that does not fit its type, a missing required element, a repeated single element).

import { XMLBuilder } from 'fast-xml-parser';
import { SoapBuildError, SoapFaultError, SoapParseError } from './errors.ts';
import {
  DEFAULT_SOAP_PROFILE,
  SOAP12_ENV_NAMESPACE,
  SOAP_ENV_NAMESPACE,
  type SoapProfile,
} from './namespaces.ts';
import { isSoapOperation, type SoapOperation, type SoapRequests, type SoapResponses } from './operations.ts';
import { SOAP_COMPLEX_TYPES, SOAP_OPERATION_SCHEMAS, type FieldDef } from './schema.ts';
import { checkEnum, readScalar, writeScalar } from './values.ts';
import {
  escapeXmlAttr,
  escapeXmlText,
  findIllegalXmlChar,
  readXml,
  replaceIllegalXmlChars,
  SOAP_MAX_BYTES,
  type XmlElement,
} from './xml.ts';

export { SOAP_MAX_BYTES } from './xml.ts';

export type SoapFaultCode = 'soap:Client' | 'soap:Server';
export type SoapVersion = '1.1' | '1.2';

export interface SoapParseOptions {
  /** largest accepted message in bytes (UTF-8); default SOAP_MAX_BYTES (4 MiB) */
  maxBytes?: number;
}

/** A parsed request, discriminated by operation. */
export type ParsedSoapRequest = {
  [K in SoapOperation]: {
    operation: K;
    request: SoapRequests[K];
    /** namespace URI of the body element as sent ('' when unqualified); the gateway checks it per endpoint */
    namespace: string;
    soapVersion: SoapVersion;
    /** paths of elements the schema does not know; they were skipped */
    ignored: string[];
  };
}[SoapOperation];

// ---------------------------------------------------------------- building

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const BODY_PREFIX = 'tns';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Text and attribute values arrive escaped by escapeXmlText / escapeXmlAttr (see xml.ts for why).
  processEntities: false,
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  format: false,
});

type BuilderNode = string | BuilderObject | BuilderNode[];
interface BuilderObject {
  [key: string]: BuilderNode;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function writeText(text: string, path: string): string {
  const bad = findIllegalXmlChar(text);
  if (bad !== undefined) {
    throw new SoapBuildError(
      `character U+${bad.code.toString(16).toUpperCase().padStart(4, '0')} at index ${bad.index} cannot be sent in XML`,
      path,
    );
  }
  return escapeXmlText(text);
}

function writeField(field: FieldDef, value: unknown, path: string): BuilderNode {
  switch (field.of.kind) {
    case 'scalar': {
      const result = writeScalar(field.of.type, value);
      if (!result.ok) throw new SoapBuildError(result.message, path);
      return writeText(result.text, path);
    }
    case 'enum': {
      if (typeof value !== 'string') throw new SoapBuildError(`expected one of ${field.of.type}`, path);
      const problem = checkEnum(field.of.type, value);
      if (problem !== undefined) throw new SoapBuildError(problem, path);
      return value;
    }
    case 'complex':
      return writeComplex(SOAP_COMPLEX_TYPES[field.of.type], value, path);
  }
}

function writeComplex(fields: ReadonlyArray<FieldDef>, value: unknown, path: string): BuilderObject {
  if (!isPlainObject(value)) throw new SoapBuildError('expected an object', path);
  for (const key of Object.keys(value)) {
    if (value[key] !== undefined && !fields.some((field) => field.name === key)) {
      throw new SoapBuildError(`unknown element "${key}"`, path);
    }
  }
  const out: BuilderObject = {};
  for (const field of fields) {
    const fieldPath = `${path}/${field.name}`;
    const item = value[field.name];
    if (item === undefined || item === null) {
      if (!field.optional) throw new SoapBuildError('required element is missing', fieldPath);
      continue;
    }
    if (field.many) {
      if (!Array.isArray(item)) throw new SoapBuildError('expected an array', fieldPath);
      if (item.length > 0)
        out[field.name] = item.map((entry, i) => writeField(field, entry, `${fieldPath}[${i}]`));
    } else {
      out[field.name] = writeField(field, item, fieldPath);
    }
  }
  return out;
}

function writeEnvelope(
  bodyName: string,
  fields: ReadonlyArray<FieldDef>,
  value: unknown,
  ns: string,
): string {
  const content = writeComplex(fields, value ?? {}, bodyName);
  const body: BuilderObject = {
    [`${BODY_PREFIX}:${bodyName}`]: { [`@_xmlns:${BODY_PREFIX}`]: escapeXmlAttr(ns), ...content },
  };
  const envelope: BuilderObject = {
    'soap:Envelope': { '@_xmlns:soap': escapeXmlAttr(SOAP_ENV_NAMESPACE), 'soap:Body': body },
  };
  return XML_DECLARATION + String(builder.build(envelope));
}

/** SOAP 1.1 request envelope for `op`. Throws SoapBuildError when a value does not fit the schema. */
export function buildRequestEnvelope<K extends SoapOperation>(
  op: K,
  req: SoapRequests[K],
  profile: SoapProfile = DEFAULT_SOAP_PROFILE,
): string {
  return writeEnvelope(op, SOAP_OPERATION_SCHEMAS[op].request, req, profile.typesNamespace);
}

/** SOAP 1.1 response envelope (<OpResponse>) for `op`. Throws SoapBuildError when a value does not fit. */
export function buildResponseEnvelope<K extends SoapOperation>(
  op: K,
  res: SoapResponses[K],
  profile: SoapProfile = DEFAULT_SOAP_PROFILE,
): string {
  return writeEnvelope(`${op}Response`, SOAP_OPERATION_SCHEMAS[op].response, res, profile.typesNamespace);
}

/**
 * SOAP 1.1 fault envelope. soap:Client: the request was wrong (malformed, schema-invalid, unknown
 * operation); soap:Server: the server failed. Report codes of the gateway are not faults: they go in
 * the normal response.
 */
export function buildFault(code: SoapFaultCode, message: string, detail?: string): string {
  // Never throws: a fault is the answer of last resort, so characters XML cannot carry (a control
  // character, half of a surrogate pair cut by truncation) become U+FFFD instead.
  const fault: BuilderObject = {
    faultcode: code,
    faultstring: escapeXmlText(replaceIllegalXmlChars(message)),
  };
  if (detail !== undefined) fault['detail'] = escapeXmlText(replaceIllegalXmlChars(detail));
  return (
    XML_DECLARATION +
    String(
      builder.build({
        'soap:Envelope': {
          '@_xmlns:soap': escapeXmlAttr(SOAP_ENV_NAMESPACE),
          'soap:Body': { 'soap:Fault': fault },
        },
      }),
    )
  );
}

// ---------------------------------------------------------------- parsing

function hasText(element: XmlElement): boolean {
  return element.text.trim() !== '';
}

function deepText(element: XmlElement): string {
  return element.text + element.children.map(deepText).join('');
}

/** Envelope and Body checks; returns the single body entry. */
function readBody(
  input: string | Uint8Array,
  options: SoapParseOptions,
): { entry: XmlElement; version: SoapVersion } {
  const root = readXml(input, options.maxBytes ?? SOAP_MAX_BYTES);
  if (root.local !== 'Envelope' || (root.ns !== SOAP_ENV_NAMESPACE && root.ns !== SOAP12_ENV_NAMESPACE)) {
    throw new SoapParseError(
      `document element is <${root.name}> in namespace "${root.ns}", not a SOAP 1.1 or 1.2 Envelope`,
    );
  }
  const version: SoapVersion = root.ns === SOAP_ENV_NAMESPACE ? '1.1' : '1.2';
  if (hasText(root)) throw new SoapParseError('text directly inside the Envelope');
  const bodies = root.children.filter((child) => child.local === 'Body' && child.ns === root.ns);
  const others = root.children.filter(
    (child) => !(child.ns === root.ns && (child.local === 'Body' || child.local === 'Header')),
  );
  const [body] = bodies;
  if (body === undefined) throw new SoapParseError('the Envelope has no Body');
  if (bodies.length > 1 || others.length > 0)
    throw new SoapParseError('the Envelope may hold only a Header and a Body');
  if (hasText(body)) throw new SoapParseError('text directly inside the Body');
  const [entry, ...more] = body.children;
  if (entry === undefined) throw new SoapParseError('the Body is empty');
  if (more.length > 0) throw new SoapParseError('the Body holds more than one element');
  return { entry, version };
}

function readField(field: FieldDef, element: XmlElement, path: string, ignored: string[]): unknown {
  switch (field.of.kind) {
    case 'scalar': {
      if (element.children.length > 0)
        throw new SoapParseError('expected text, found child elements', { path });
      const result = readScalar(field.of.type, element.text);
      if (!result.ok) throw new SoapParseError(result.message, { path });
      return result.value;
    }
    case 'enum': {
      if (element.children.length > 0)
        throw new SoapParseError('expected text, found child elements', { path });
      const text = element.text.trim();
      const problem = checkEnum(field.of.type, text);
      if (problem !== undefined) throw new SoapParseError(problem, { path });
      return text;
    }
    case 'complex':
      return readComplex(SOAP_COMPLEX_TYPES[field.of.type], element, path, ignored);
  }
}

function readComplex(
  fields: ReadonlyArray<FieldDef>,
  element: XmlElement,
  path: string,
  ignored: string[],
): Record<string, unknown> {
  if (hasText(element)) throw new SoapParseError('unexpected text among child elements', { path });
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field.many) out[field.name] = [];
  for (const child of element.children) {
    const field = fields.find((candidate) => candidate.name === child.local);
    const childPath = `${path}/${child.local}`;
    if (field === undefined) {
      ignored.push(childPath);
      continue;
    }
    if (child.nil) {
      if (!field.optional) throw new SoapParseError('required element is nil', { path: childPath });
      continue;
    }
    const value = readField(field, child, childPath, ignored);
    if (field.many) (out[field.name] as unknown[]).push(value);
    else if (field.name in out)
      throw new SoapParseError('element appears more than once', { path: childPath });
    else out[field.name] = value;
  }
  for (const field of fields) {
    if (!field.optional && !(field.name in out)) {
      throw new SoapParseError('required element is missing', { path: `${path}/${field.name}` });
    }
  }
  return out;
}

function readFault(entry: XmlElement, version: SoapVersion): SoapFaultError {
  const child = (parent: XmlElement | undefined, local: string): XmlElement | undefined =>
    parent?.children.find((c) => c.local === local);
  if (version === '1.1') {
    const faultactor = child(entry, 'faultactor');
    const detail = child(entry, 'detail');
    return new SoapFaultError({
      faultcode: child(entry, 'faultcode')?.text.trim() ?? '',
      faultstring: child(entry, 'faultstring')?.text ?? '',
      ...(faultactor ? { faultactor: faultactor.text.trim() } : {}),
      ...(detail ? { detail: deepText(detail) } : {}),
    });
  }
  const detail = child(entry, 'Detail');
  return new SoapFaultError({
    faultcode: child(child(entry, 'Code'), 'Value')?.text.trim() ?? '',
    faultstring: child(child(entry, 'Reason'), 'Text')?.text ?? '',
    ...(detail ? { detail: deepText(detail) } : {}),
  });
}

function isFaultEntry(entry: XmlElement): boolean {
  return entry.local === 'Fault' && (entry.ns === SOAP_ENV_NAMESPACE || entry.ns === SOAP12_ENV_NAMESPACE);
}

/**
 * Parse a request envelope of any of the eight operations. The body element may carry any prefix and
 * any namespace (reported as `namespace`). Throws SoapParseError.
 */
export function parseRequestEnvelope(
  input: string | Uint8Array,
  options: SoapParseOptions = {},
): ParsedSoapRequest {
  const { entry, version } = readBody(input, options);
  if (isFaultEntry(entry)) throw new SoapParseError('the Body holds a Fault, not a request');
  if (!isSoapOperation(entry.local)) {
    throw new SoapParseError(`unknown operation <${entry.local}>`, { path: entry.local });
  }
  const ignored: string[] = [];
  const request = readComplex(SOAP_OPERATION_SCHEMAS[entry.local].request, entry, entry.local, ignored);
  return {
    operation: entry.local,
    request: request as SoapRequests[typeof entry.local],
    namespace: entry.ns,
    soapVersion: version,
    ignored,
  } as ParsedSoapRequest;
}

/**
 * Parse the response envelope of `op`. Throws SoapFaultError when the body is a Fault, and
 * SoapParseError when it is not a valid <OpResponse>.
 */
export function parseResponseEnvelope<K extends SoapOperation>(
  op: K,
  input: string | Uint8Array,
  options: SoapParseOptions = {},
): SoapResponses[K] {
  const { entry, version } = readBody(input, options);
  if (isFaultEntry(entry)) throw readFault(entry, version);
  const expected = `${op}Response`;
  if (entry.local !== expected) {
    throw new SoapParseError(`expected <${expected}>, found <${entry.local}>`, { path: entry.local });
  }
  return readComplex(SOAP_OPERATION_SCHEMAS[op].response, entry, expected, []) as unknown as SoapResponses[K];
}

/** The fault in an envelope, or undefined when the body is not a Fault. Throws SoapParseError. */
export function parseFault(
  input: string | Uint8Array,
  options: SoapParseOptions = {},
): SoapFaultError | undefined {
  const { entry, version } = readBody(input, options);
  return isFaultEntry(entry) ? readFault(entry, version) : undefined;
}
