// Reading a gateway's own WSDL: which namespaces its SOAP interface uses. The client asks the
// gateway for its WSDL and takes the namespaces from it (main/client/soap-namespace.ts), so a gateway
// in the provider's namespaces, in this project's older ones or in any other pair is spoken to in its own.
import { SoapParseError } from './errors.ts';
import { WSDL_NAMESPACE, XSD_NAMESPACE, type SoapProfile } from './namespaces.ts';
import { readXml, type XmlElement } from './xml.ts';

/** Largest WSDL read (the provider's is ~40 KB). */
export const WSDL_MAX_BYTES = 1024 * 1024;

function* descendants(e: XmlElement): Generator<XmlElement> {
  for (const c of e.children) {
    yield c;
    yield* descendants(c);
  }
}

/**
 * The SoapProfile a WSDL describes: `namespace` = the definitions' targetNamespace, `typesNamespace`
 * = the targetNamespace of the schema that declares the operations' body elements (SubmitMessage,
 * CollectMessages …). Throws SoapParseError when the text is not a WSDL 1.1 document with such a schema.
 */
export function readWsdlProfile(text: string | Uint8Array): SoapProfile {
  const root = readXml(text, WSDL_MAX_BYTES);
  if (root.local !== 'definitions' || root.ns !== WSDL_NAMESPACE)
    throw new SoapParseError(`not a WSDL 1.1 document (root <${root.name}>)`);
  const namespace = root.attrs['targetNamespace'];
  if (!namespace) throw new SoapParseError('the WSDL has no targetNamespace');
  const schemas = [...descendants(root)].filter((e) => e.local === 'schema' && e.ns === XSD_NAMESPACE);
  const declares = (s: XmlElement, name: string) =>
    s.children.some((c) => c.local === 'element' && c.attrs['name'] === name);
  const schema =
    schemas.find((s) => declares(s, 'SubmitMessage') || declares(s, 'CollectMessages')) ??
    schemas.find((s) => s.attrs['targetNamespace']);
  const typesNamespace = schema?.attrs['targetNamespace'];
  if (!typesNamespace) throw new SoapParseError('the WSDL has no schema with a targetNamespace');
  return { namespace, typesNamespace };
}
