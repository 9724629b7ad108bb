// Reading a gateway's own WSDL: which namespaces its SOAP interface uses. The client asks the
// gateway for its WSDL and takes the namespaces from it (main/client/soap-namespace.ts), so a gateway
// in the provider's namespaces, in this project's older ones or in any other pair is spoken to in its own.
// One pass over saxes with namespaces resolved (the SOAP reader's sink carries no attributes, and a
// WSDL is read for three of them): the same refusals as a SOAP message (size, UTF-8, DOCTYPE/ENTITY,
// well-formedness).
import { SaxesParser } from 'saxes';
import type { SaxesTagNS } from 'saxes';
import { SoapParseError } from './errors.ts';
import { WSDL_NAMESPACE, XSD_NAMESPACE, type SoapProfile } from './namespaces.ts';
import { DOCTYPE_OR_ENTITY, utf8Length } from './xml.ts';

/** Largest WSDL read (the provider's is ~40 KB). */
export const WSDL_MAX_BYTES = 1024 * 1024;

interface Schema {
  targetNamespace: string | undefined;
  /** names of the top-level xsd:element declarations */
  elements: string[];
}

function decode(text: string | Uint8Array): string {
  if (typeof text === 'string') {
    if (utf8Length(text) > WSDL_MAX_BYTES)
      throw new SoapParseError(`message is larger than the limit of ${WSDL_MAX_BYTES} bytes`);
    return text;
  }
  if (text.byteLength > WSDL_MAX_BYTES)
    throw new SoapParseError(`message is larger than the limit of ${WSDL_MAX_BYTES} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    throw new SoapParseError('message is not valid UTF-8');
  }
}

/**
 * The SoapProfile a WSDL describes: `namespace` = the definitions' targetNamespace, `typesNamespace`
 * = the targetNamespace of the schema that declares the operations' body elements (SubmitMessage,
 * CollectMessages …). Throws SoapParseError when the text is not a WSDL 1.1 document with such a schema.
 */
export function readWsdlProfile(text: string | Uint8Array): SoapProfile {
  const xml = decode(text);
  if (DOCTYPE_OR_ENTITY.test(xml))
    throw new SoapParseError('DOCTYPE and ENTITY declarations are not allowed in SOAP messages');
  const parser = new SaxesParser({ xmlns: true, position: true });
  let root: { name: string; local: string; uri: string; targetNamespace: string | undefined } | undefined;
  const schemas: Schema[] = [];
  /** the open elements; a schema's entry carries it, to collect its top-level elements */
  const open: Array<Schema | null> = [];
  const attr = (tag: SaxesTagNS, name: string): string | undefined => tag.attributes[name]?.value;
  parser.on('error', (err) => {
    throw new SoapParseError(`malformed XML: ${err.message.replace(/^\d+:\d+: /, '')}`, {
      line: parser.line,
      column: parser.column + 1,
    });
  });
  parser.on('opentag', (tag) => {
    root ??= {
      name: tag.name,
      local: tag.local,
      uri: tag.uri,
      targetNamespace: attr(tag, 'targetNamespace'),
    };
    const parent = open[open.length - 1];
    if (parent && tag.local === 'element' && tag.uri === XSD_NAMESPACE) {
      const name = attr(tag, 'name');
      if (name !== undefined) parent.elements.push(name);
    }
    if (tag.local === 'schema' && tag.uri === XSD_NAMESPACE) {
      const schema: Schema = { targetNamespace: attr(tag, 'targetNamespace'), elements: [] };
      schemas.push(schema);
      open.push(schema);
    } else open.push(null);
  });
  parser.on('closetag', () => {
    open.pop();
  });
  parser.write(xml).close();
  if (root === undefined) throw new SoapParseError('no document element');
  if (root.local !== 'definitions' || root.uri !== WSDL_NAMESPACE)
    throw new SoapParseError(`not a WSDL 1.1 document (root <${root.name}>)`);
  const namespace = root.targetNamespace;
  if (!namespace) throw new SoapParseError('the WSDL has no targetNamespace');
  const declares = (s: Schema, name: string) => s.elements.includes(name);
  const schema =
    schemas.find((s) => declares(s, 'SubmitMessage') || declares(s, 'CollectMessages')) ??
    schemas.find((s) => s.targetNamespace);
  const typesNamespace = schema?.targetNamespace;
  if (!typesNamespace) throw new SoapParseError('the WSDL has no schema with a targetNamespace');
  return { namespace, typesNamespace };
}
