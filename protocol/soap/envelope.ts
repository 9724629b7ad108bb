// SOAP 1.1 envelopes of the eight operations (spec 4.5): document/literal, the body element is the
// operation name (request) or <Operation>Response (response) in the profile's types namespace, and
// its children are unqualified. Builders write with fast-xml-parser's XMLBuilder in schema order;
// parsers read in one streaming pass (reader.ts over the safe XML reader of xml.ts) and type every
// value by the schema table of schema.ts as its element closes.
//
// Parsers are tolerant where SOAP stacks differ (any prefix or default namespace on the body element,
// qualified or unqualified children, SOAP 1.1 or 1.2 envelope, whitespace, comments, element order,
// unknown elements) and strict where data would be lost (malformed XML, DOCTYPE, oversize, a value
// that does not fit its type, a missing required element, a repeated single element).

import { XMLBuilder } from 'fast-xml-parser';
import { SoapBuildError, SoapParseError, type SoapFaultError } from './errors.ts';
import { DEFAULT_SOAP_PROFILE, SOAP_ENV_NAMESPACE, type SoapProfile } from './namespaces.ts';
import type { MOMessage, SoapOperation, SoapRequests, SoapResponses } from './operations.ts';
import { SOAP_COMPLEX_TYPES, SOAP_OPERATION_SCHEMAS, type FieldDef } from './schema.ts';
import { checkEnum, writeScalar } from './values.ts';
import { escapeXmlAttr, escapeXmlText, findIllegalXmlChar, replaceIllegalXmlChars } from './xml.ts';
import { SoapEnvelopeReader, type EnvelopeContent, type ReaderMode, type SoapVersion } from './reader.ts';

export { SOAP_MAX_ATTRIBUTES, SOAP_MAX_BYTES, SOAP_MAX_DEPTH, SOAP_MAX_ELEMENTS } from './xml.ts';
export { SOAP_STREAMED_LISTS, type SoapVersion } from './reader.ts';

/** soap:VersionMismatch: the envelope is not SOAP 1.1's (SOAP 1.1 section 4.4.1; issue 24). */
export type SoapFaultCode = 'soap:Client' | 'soap:Server' | 'soap:VersionMismatch';

export interface SoapParseOptions {
  /** largest accepted message in bytes (UTF-8); default SOAP_MAX_BYTES (4 MiB) */
  maxBytes?: number;
  /** most elements accepted, and most attributes (counted apart); default SOAP_MAX_ELEMENTS / _ATTRIBUTES */
  maxElements?: number;
  maxAttributes?: number;
  /**
   * the HTTP charset parameter of the message, if any: with a byte order mark and the XML declaration
   * it says the encoding (UTF-8, UTF-16, ISO-8859-1, windows-1252; xml-encoding.ts)
   */
  charset?: string | undefined;
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

function readEnvelope(
  mode: ReaderMode,
  input: string | Uint8Array,
  options: SoapParseOptions,
): EnvelopeContent {
  const reader = new SoapEnvelopeReader(mode, options);
  reader.write(input);
  return reader.end().content;
}

/** A request envelope's content as the request it is. */
function parsedRequest(content: EnvelopeContent): ParsedSoapRequest {
  return {
    operation: content.entry,
    request: content.value,
    namespace: content.namespace,
    soapVersion: content.version,
    ignored: content.ignored,
  } as ParsedSoapRequest;
}

/**
 * Parse a request envelope of any of the eight operations. The body element may carry any prefix and
 * any namespace (reported as `namespace`). Throws SoapParseError.
 */
export function parseRequestEnvelope(
  input: string | Uint8Array,
  options: SoapParseOptions = {},
): ParsedSoapRequest {
  return parsedRequest(readEnvelope({ kind: 'request' }, input, options));
}

/** Bytes parsed between two turns of the event loop by parseRequestEnvelopeInSlices. */
export const SOAP_PARSE_SLICE_BYTES = 64 * 1024;

/**
 * Most '&' and ']' characters in one request (issue 23). saxes builds the text of a reference or of a
 * ']' inside CDATA one character at a time: 4 MB of "&amp;" or of "]" in CDATA took seconds and
 * gigabytes of rope. A request of this interface has a few: a text message is at most some
 * 40,000 characters of which those are a handful, and hex content has none.
 */
export const SOAP_MAX_SPECIAL_CHARS = 16 * 1024;

/**
 * parseRequestEnvelope for a server (issue 23): the body is fed to the streaming reader in slices,
 * each followed by a macrotask turn, so a 4 MB hostile envelope never holds other requests up for
 * more than one slice; and a body of more than SOAP_MAX_SPECIAL_CHARS '&' and ']' is refused before
 * the parser meets them. `yieldTurn` is setImmediate in a promise.
 */
export async function parseRequestEnvelopeInSlices(
  input: Uint8Array,
  options: SoapParseOptions,
  yieldTurn: () => Promise<void>,
): Promise<ParsedSoapRequest> {
  const reader = new SoapEnvelopeReader({ kind: 'request' }, options);
  let special = 0;
  for (let at = 0; at < input.byteLength; at += SOAP_PARSE_SLICE_BYTES) {
    const slice = input.subarray(at, at + SOAP_PARSE_SLICE_BYTES);
    for (const b of slice) if (b === 0x26 || b === 0x5d) special++;
    if (special > SOAP_MAX_SPECIAL_CHARS)
      throw new SoapParseError(
        `more than ${SOAP_MAX_SPECIAL_CHARS} "&" and "]" characters: not a request of this interface`,
      );
    reader.write(slice);
    if (at + SOAP_PARSE_SLICE_BYTES < input.byteLength) await yieldTurn();
  }
  return parsedRequest(reader.end().content);
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
  const content = readEnvelope({ kind: 'response', op, stream: false }, input, options);
  if (content.fault !== undefined) throw content.fault;
  return content.value as unknown as SoapResponses[K];
}

/** The fault in an envelope, or undefined when the body is not a Fault. Throws SoapParseError. */
export function parseFault(
  input: string | Uint8Array,
  options: SoapParseOptions = {},
): SoapFaultError | undefined {
  return readEnvelope({ kind: 'fault' }, input, options).fault;
}

/** The items a streamed list (SOAP_STREAMED_LISTS: the messages of CollectMessages) is made of. */
export type SoapStreamedItem<K extends SoapOperation> = K extends 'CollectMessages' ? MOMessage : never;

/** Incremental reader of a response: feed chunks, get the list's items; memory bounded per item. */
export interface SoapResponseStream<K extends SoapOperation> {
  /** Feed the next chunk of the body; returns the list items it completed. Throws SoapParseError. */
  write(chunk: Uint8Array | string): Array<SoapStreamedItem<K>>;
  /**
   * The end of the body: the response, its streamed list left empty (the items came out of write),
   * and any last items. Throws SoapFaultError for a fault and SoapParseError for a bad document.
   */
  end(): { response: SoapResponses[K]; items: Array<SoapStreamedItem<K>> };
}

/**
 * A streaming reader of the response of `op`. No size limit applies to the whole answer (a client
 * reads what its gateway sends); each item of the streamed list is capped as a message would be
 * (options.maxBytes, maxElements, maxAttributes), so memory stays bounded per item.
 */
export function createResponseStream<K extends SoapOperation>(
  op: K,
  options: SoapParseOptions = {},
): SoapResponseStream<K> {
  const reader = new SoapEnvelopeReader({ kind: 'response', op, stream: true }, options);
  return {
    write: (chunk) => reader.write(chunk) as Array<SoapStreamedItem<K>>,
    end: () => {
      const { content, items } = reader.end();
      if (content.fault !== undefined) throw content.fault;
      return {
        response: content.value as unknown as SoapResponses[K],
        items: items as Array<SoapStreamedItem<K>>,
      };
    },
  };
}
