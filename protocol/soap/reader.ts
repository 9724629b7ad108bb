// The SOAP envelope reader: one streaming pass from bytes to typed values. The XML events of xml.ts
// (saxes) drive a stack of frames built from the schema table of schema.ts, so each value is typed
// (numbers, booleans, hex, arrays, required elements) when its element closes; no tree of the document
// is ever built. A streamed list (the messages of CollectMessages) hands each item out as soon as it
// is complete and forgets it, so an answer of any size is read in bounded memory: the caps then apply
// to each item (elements, attributes, characters) instead of the whole document.
//
// Tolerant where SOAP stacks differ (any prefix or default namespace on the body element, qualified or
// unqualified children matched by local name, SOAP 1.1 or 1.2, whitespace, comments, element order,
// unknown elements, a Header), strict where data would be lost (see envelope.ts).

import { SoapFaultError, SoapParseError } from './errors.ts';
import { SOAP12_ENV_NAMESPACE, SOAP_ENV_NAMESPACE } from './namespaces.ts';
import { isSoapOperation, type SoapOperation } from './operations.ts';
import { SOAP_COMPLEX_TYPES, SOAP_OPERATION_SCHEMAS, type FieldDef } from './schema.ts';
import { checkEnum, readScalar } from './values.ts';
import {
  SOAP_MAX_ATTRIBUTES,
  SOAP_MAX_BYTES,
  SOAP_MAX_ELEMENTS,
  XmlStreamReader,
  type XmlLimits,
  type XmlSink,
} from './xml.ts';

export type SoapVersion = '1.1' | '1.2';

/** The list of a response that is handed out item by item when streaming (by local names). */
export const SOAP_STREAMED_LISTS: Partial<Record<SoapOperation, { list: string; item: string }>> = {
  CollectMessages: { list: 'MessageList', item: 'item' },
};

export type ReaderMode =
  { kind: 'request' } | { kind: 'response'; op: SoapOperation; stream: boolean } | { kind: 'fault' };

const ENVELOPE = 0;
const HEADER = 1;
const BODY = 2;
const COMPLEX = 3;
const SCALAR = 4;
const SKIP = 5;
const TREE = 6;
const ROOT = 7;

interface TreeNode {
  local: string;
  text: string;
  children: TreeNode[];
}

interface Frame {
  role: number;
  local: string;
  parent: Frame | undefined;
  /** COMPLEX: the fields of its type, and the same by element name */
  fields: ReadonlyArray<FieldDef> | undefined;
  index: Map<string, FieldDef> | undefined;
  /** the field this element fills in its parent (undefined for the body entry) */
  field: FieldDef | undefined;
  out: Record<string, unknown> | undefined;
  text: string;
  children: number;
  tree: TreeNode | undefined;
  /** COMPLEX: the streamed list itself; its items go out of write() */
  streamList: boolean;
}

const byName = new WeakMap<ReadonlyArray<FieldDef>, Map<string, FieldDef>>();
function fieldIndex(fields: ReadonlyArray<FieldDef>): Map<string, FieldDef> {
  let index = byName.get(fields);
  if (index === undefined) {
    index = new Map(fields.map((f) => [f.name, f]));
    byName.set(fields, index);
  }
  return index;
}

const NOT_SPACE = /[^ \t\r\n]/;

function frame(role: number, local: string, parent: Frame | undefined): Frame {
  return {
    role,
    local,
    parent,
    fields: undefined,
    index: undefined,
    field: undefined,
    out: undefined,
    text: '',
    children: 0,
    tree: undefined,
    streamList: false,
  };
}

/** Element path from the body entry, e.g. "SubmitMessage/Recipient/MCC". */
function pathOf(f: Frame): string {
  const parts: string[] = [];
  for (let at: Frame | undefined = f; at !== undefined && at.role !== BODY; at = at.parent) {
    parts.push(at.local);
  }
  return parts.reverse().join('/');
}

function deepText(node: TreeNode): string {
  return node.text + node.children.map(deepText).join('');
}

const REPORT_CODE = /^-?[0-9]{1,3}$/;

/** The report code of a fault's detail: a <Report> in it (any depth, any namespace), or its text. */
function reportOf(detail: TreeNode): string | undefined {
  const find = (node: TreeNode): TreeNode | undefined => {
    for (const c of node.children) {
      const hit = c.local === 'Report' ? c : find(c);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  const text = (find(detail) !== undefined ? deepText(find(detail)!) : deepText(detail)).trim();
  return REPORT_CODE.test(text) ? text : undefined;
}

function readFault(entry: TreeNode, version: SoapVersion): SoapFaultError {
  const child = (parent: TreeNode | undefined, local: string): TreeNode | undefined =>
    parent?.children.find((c) => c.local === local);
  const detail = child(entry, version === '1.1' ? 'detail' : 'Detail');
  const report = detail !== undefined ? reportOf(detail) : undefined;
  const fromDetail = {
    ...(detail ? { detail: deepText(detail) } : {}),
    ...(report !== undefined ? { report } : {}),
  };
  if (version === '1.1') {
    const faultactor = child(entry, 'faultactor');
    return new SoapFaultError({
      faultcode: child(entry, 'faultcode')?.text.trim() ?? '',
      faultstring: child(entry, 'faultstring')?.text ?? '',
      ...(faultactor ? { faultactor: faultactor.text.trim() } : {}),
      ...fromDetail,
    });
  }
  return new SoapFaultError({
    faultcode: child(child(entry, 'Code'), 'Value')?.text.trim() ?? '',
    faultstring: child(child(entry, 'Reason'), 'Text')?.text ?? '',
    ...fromDetail,
  });
}

export interface ReaderLimits {
  /** largest message in bytes (UTF-8); a streamed response has none (its items are capped instead) */
  maxBytes?: number;
  maxElements?: number;
  maxAttributes?: number;
  /** the HTTP charset parameter the message came with (the encoding rules of xml-encoding.ts) */
  charset?: string | undefined;
}

/** What a finished envelope held. */
export interface EnvelopeContent {
  version: SoapVersion;
  /** the body element's local name and namespace */
  entry: string;
  namespace: string;
  /** the typed body (undefined for a fault) */
  value: Record<string, unknown> | undefined;
  fault: SoapFaultError | undefined;
  ignored: string[];
}

/**
 * Incremental reader of one envelope: `write(chunk)` returns the streamed items the chunk completed
 * (always [] unless streaming), `end()` checks the end of the document and returns what it held.
 * Every error is a SoapParseError thrown by write or end.
 */
export class SoapEnvelopeReader implements XmlSink {
  readonly #mode: ReaderMode;
  /** the list handed out item by item, when streaming */
  readonly #streamed: { list: string; item: string } | undefined;
  readonly #xml: XmlStreamReader;
  readonly #itemLimits: { elements: number; attributes: number; chars: number };
  #top: Frame | undefined;
  #version: SoapVersion = '1.1';
  #sawBody = false;
  #entry: Frame | undefined;
  #content: EnvelopeContent | undefined;
  readonly #ignored: string[] = [];
  #pending: unknown[] = [];
  /** position, element and attribute counts where the current streamed item started */
  #item: { position: number } | undefined;

  constructor(mode: ReaderMode, limits: ReaderLimits = {}) {
    this.#mode = mode;
    const streaming = mode.kind === 'response' && mode.stream;
    this.#streamed = streaming ? SOAP_STREAMED_LISTS[mode.op] : undefined;
    this.#itemLimits = {
      elements: limits.maxElements ?? SOAP_MAX_ELEMENTS,
      attributes: limits.maxAttributes ?? SOAP_MAX_ATTRIBUTES,
      chars: limits.maxBytes ?? SOAP_MAX_BYTES,
    };
    const xmlLimits: XmlLimits = streaming
      ? {
          maxBytes: Infinity,
          maxElements: this.#itemLimits.elements,
          maxAttributes: this.#itemLimits.attributes,
          charset: limits.charset,
        }
      : {
          maxBytes: limits.maxBytes ?? SOAP_MAX_BYTES,
          maxElements: this.#itemLimits.elements,
          maxAttributes: this.#itemLimits.attributes,
          charset: limits.charset,
        };
    this.#xml = new XmlStreamReader(this, xmlLimits);
  }

  write(chunk: Uint8Array | string): unknown[] {
    this.#xml.write(chunk);
    this.#checkItemSize();
    if (this.#pending.length === 0) return [];
    const items = this.#pending;
    this.#pending = [];
    return items;
  }

  /** The end of the input: the items still pending (normally none) come out of `content.value`'s list. */
  end(): { content: EnvelopeContent; items: unknown[] } {
    this.#xml.end();
    if (this.#content === undefined) {
      if (!this.#sawBody) throw new SoapParseError('the Envelope has no Body');
      throw new SoapParseError('the Body is empty');
    }
    const items = this.#pending;
    this.#pending = [];
    return { content: this.#content, items };
  }

  #checkItemSize(): void {
    if (this.#item !== undefined && this.#xml.position - this.#item.position > this.#itemLimits.chars) {
      throw new SoapParseError(
        `a list item is larger than the limit of ${this.#itemLimits.chars} characters`,
      );
    }
  }

  open(local: string, ns: string, name: string, nil: boolean): void {
    const parent = this.#top;
    if (parent === undefined) {
      if (local !== 'Envelope' || (ns !== SOAP_ENV_NAMESPACE && ns !== SOAP12_ENV_NAMESPACE)) {
        throw new SoapParseError(
          `document element is <${name}> in namespace "${ns}", not a SOAP 1.1 or 1.2 Envelope`,
        );
      }
      this.#version = ns === SOAP_ENV_NAMESPACE ? '1.1' : '1.2';
      this.#top = frame(ENVELOPE, local, undefined);
      return;
    }
    parent.children++;
    switch (parent.role) {
      case ENVELOPE:
        this.#openInEnvelope(parent, local, ns);
        return;
      case BODY:
        this.#openEntry(parent, local, ns);
        return;
      case COMPLEX:
      case ROOT:
        this.#openChild(parent, local, nil);
        return;
      case SCALAR:
        throw new SoapParseError('expected text, found child elements', { path: pathOf(parent) });
      case TREE: {
        const node: TreeNode = { local, text: '', children: [] };
        parent.tree?.children.push(node);
        const f = frame(TREE, local, parent);
        f.tree = node;
        this.#top = f;
        return;
      }
      default:
        this.#top = frame(SKIP, local, parent);
    }
  }

  #openInEnvelope(parent: Frame, local: string, ns: string): void {
    const envNs = this.#version === '1.1' ? SOAP_ENV_NAMESPACE : SOAP12_ENV_NAMESPACE;
    if (ns === envNs && local === 'Header' && !this.#sawBody) {
      this.#top = frame(HEADER, local, parent);
      return;
    }
    if (ns !== envNs || local !== 'Body' || this.#sawBody) {
      throw new SoapParseError('the Envelope may hold only a Header and a Body');
    }
    this.#sawBody = true;
    this.#top = frame(BODY, local, parent);
  }

  #openEntry(body: Frame, local: string, ns: string): void {
    if (body.children > 1) throw new SoapParseError('the Body holds more than one element');
    const isFault = local === 'Fault' && (ns === SOAP_ENV_NAMESPACE || ns === SOAP12_ENV_NAMESPACE);
    const mode = this.#mode;
    let fields: ReadonlyArray<FieldDef> | undefined;
    if (isFault) {
      if (mode.kind === 'request') throw new SoapParseError('the Body holds a Fault, not a request');
      const f = frame(TREE, local, body);
      f.tree = { local, text: '', children: [] };
      this.#entry = f;
      this.#top = f;
      return;
    }
    if (mode.kind === 'fault') {
      this.#entry = frame(SKIP, local, body);
      this.#top = this.#entry;
      return;
    }
    if (mode.kind === 'request') {
      if (!isSoapOperation(local)) throw new SoapParseError(`unknown operation <${local}>`, { path: local });
      fields = SOAP_OPERATION_SCHEMAS[local].request;
    } else {
      const expected = `${mode.op}Response`;
      if (local !== expected) {
        throw new SoapParseError(`expected <${expected}>, found <${local}>`, { path: local });
      }
      fields = SOAP_OPERATION_SCHEMAS[mode.op].response;
    }
    const f = this.#complexFrame(ROOT, local, body, fields);
    f.text = ns; // the entry keeps its namespace here (its own text is checked to be white space)
    this.#entry = f;
    this.#top = f;
  }

  #complexFrame(role: number, local: string, parent: Frame, fields: ReadonlyArray<FieldDef>): Frame {
    const f = frame(role, local, parent);
    f.fields = fields;
    f.index = fieldIndex(fields);
    const out: Record<string, unknown> = {};
    for (const field of fields) if (field.many) out[field.name] = [];
    f.out = out;
    return f;
  }

  #openChild(parent: Frame, local: string, nil: boolean): void {
    const field = parent.index?.get(local);
    if (field === undefined) {
      this.#top = frame(SKIP, local, parent);
      this.#ignored.push(`${pathOf(parent)}/${local}`);
      return;
    }
    if (nil) {
      if (!field.optional) {
        throw new SoapParseError('required element is nil', { path: `${pathOf(parent)}/${local}` });
      }
      this.#top = frame(SKIP, local, parent);
      return;
    }
    if (!field.many && parent.out !== undefined && field.name in parent.out) {
      throw new SoapParseError('element appears more than once', { path: `${pathOf(parent)}/${local}` });
    }
    let f: Frame;
    if (field.of.kind === 'complex') {
      f = this.#complexFrame(COMPLEX, local, parent, SOAP_COMPLEX_TYPES[field.of.type]);
      const streamed = this.#streamed;
      if (streamed !== undefined) {
        if (parent.role === ROOT && local === streamed.list) f.streamList = true;
        else if (parent.streamList && local === streamed.item) {
          this.#xml.resetCounts();
          this.#item = { position: this.#xml.position };
        }
      }
    } else {
      f = frame(SCALAR, local, parent);
    }
    f.field = field;
    this.#top = f;
  }

  text(text: string): void {
    const f = this.#top;
    if (f === undefined) return;
    switch (f.role) {
      case SCALAR:
        f.text += text;
        return;
      case TREE:
        if (f.tree !== undefined) f.tree.text += text;
        return;
      case COMPLEX:
      case ROOT:
        if (NOT_SPACE.test(text)) {
          throw new SoapParseError('unexpected text among child elements', { path: pathOf(f) });
        }
        return;
      case ENVELOPE:
        if (NOT_SPACE.test(text)) throw new SoapParseError('text directly inside the Envelope');
        return;
      case BODY:
        if (NOT_SPACE.test(text)) throw new SoapParseError('text directly inside the Body');
        return;
      default:
        return;
    }
  }

  close(): void {
    const f = this.#top;
    if (f === undefined) return;
    this.#top = f.parent;
    switch (f.role) {
      case SCALAR:
        this.#store(f, this.#scalar(f));
        return;
      case COMPLEX:
        this.#checkRequired(f);
        this.#store(f, f.out);
        return;
      case ROOT:
        this.#checkRequired(f);
        this.#finish(f, f.out, undefined);
        return;
      case TREE:
        if (f === this.#entry && f.tree !== undefined)
          this.#finish(f, undefined, readFault(f.tree, this.#version));
        return;
      case SKIP:
        if (f === this.#entry) this.#finish(f, undefined, undefined);
        return;
      default:
        return;
    }
  }

  #finish(f: Frame, value: Record<string, unknown> | undefined, fault: SoapFaultError | undefined): void {
    this.#content = {
      version: this.#version,
      entry: f.local,
      namespace: f.role === ROOT ? f.text : '',
      value,
      fault,
      ignored: this.#ignored,
    };
  }

  #scalar(f: Frame): unknown {
    const of = f.field?.of;
    if (of?.kind === 'scalar') {
      const result = readScalar(of.type, f.text);
      if (!result.ok) throw new SoapParseError(result.message, { path: pathOf(f) });
      return result.value;
    }
    if (of?.kind === 'enum') {
      const text = f.text.trim();
      const problem = checkEnum(of.type, text);
      if (problem !== undefined) throw new SoapParseError(problem, { path: pathOf(f) });
      return text;
    }
    return f.text;
  }

  #checkRequired(f: Frame): void {
    const out = f.out ?? {};
    for (const field of f.fields ?? []) {
      if (!field.optional && !(field.name in out)) {
        throw new SoapParseError('required element is missing', { path: `${pathOf(f)}/${field.name}` });
      }
    }
  }

  #store(f: Frame, value: unknown): void {
    const field = f.field;
    const parent = f.parent;
    if (field === undefined || parent?.out === undefined) return;
    if (parent.streamList && this.#item !== undefined) {
      this.#checkItemSize();
      this.#item = undefined;
      this.#pending.push(value);
      return;
    }
    if (field.many) (parent.out[field.name] as unknown[]).push(value);
    else parent.out[field.name] = value;
  }
}
