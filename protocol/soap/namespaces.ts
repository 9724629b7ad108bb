// XML namespaces of the SOAP interface (spec 4.5, 9.1). The spec leaves the URIs as placeholders
// ({soap_namespace}, {soap_types_namespace}); the provider publishes them in its WSDL (version 5.7,
// /dtd/sendsms5.wsdl, service {base_url}/sendsms5), and those are the defaults here. A gateway may
// use others: the client learns them from the gateway's own WSDL (main/client/soap-namespace.ts),
// the reference gateway takes --soap-namespace / --soap-types-namespace.

/** {soap_types_namespace} as the provider publishes it: the body elements of /sendsms5. */
export const PROVIDER_SOAP_TYPES_NAMESPACE = 'http://www.csoft.co.uk/dtd/sendsms5.xsd';

/** {soap_namespace} as the provider publishes it: the targetNamespace of its sendsms5 WSDL definitions. */
export const PROVIDER_SOAP_NAMESPACE = 'http://www.csoft.co.uk/dtd/sendsms5.wsdl';

/** Where the provider serves its WSDL below its web site (the client's second place to look). */
export const PROVIDER_WSDL_PATH = '/dtd/sendsms5.wsdl';

/** The types namespace of /sendsms5 (the provider's). */
export const SOAP_TYPES_NAMESPACE = PROVIDER_SOAP_TYPES_NAMESPACE;

/** The namespace of the older SOAP description served at /sendsms2 (types and definitions alike). */
export const SOAP_NAMESPACE = 'http://messaging-gateway.example/sendsms2';

/** targetNamespace of the sendsms5 WSDL definitions (messages, portType, binding, service). */
export const SOAP_SERVICE_NAMESPACE = PROVIDER_SOAP_NAMESPACE;

/** The pair this project used before it had the provider's values; a gateway may still serve it. */
export const EXAMPLE_SENDSMS5_PROFILE: SoapProfile = {
  typesNamespace: 'http://messaging-gateway.example/sendsms5/types',
  namespace: 'http://messaging-gateway.example/sendsms5',
};

/** Where the two SOAP descriptions are served below {base_url} (spec 4.5, 9.1). */
export const SOAP_PATHS = { sendsms5: '/sendsms5', sendsms2: '/sendsms2' } as const;

/** SOAP 1.1 envelope namespace; every envelope this project builds uses it. */
export const SOAP_ENV_NAMESPACE = 'http://schemas.xmlsoap.org/soap/envelope/';

/** SOAP 1.2 envelope namespace; accepted by the parsers, never produced. */
export const SOAP12_ENV_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';

export const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
export const WSDL_NAMESPACE = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL_SOAP_NAMESPACE = 'http://schemas.xmlsoap.org/wsdl/soap/';

/** HTTP Content-Type of a SOAP 1.1 message. */
export const SOAP_CONTENT_TYPE = 'text/xml; charset=utf-8';

/**
 * Media types a server should accept for a SOAP request: text/xml (SOAP 1.1), application/soap+xml
 * (SOAP 1.2) and text/soap, which the older page of the spec (4.3) names for /sendsms2.
 */
export const SOAP_REQUEST_MEDIA_TYPES = ['text/xml', 'application/soap+xml', 'text/soap'] as const;

/** True when a Content-Type header value names one of SOAP_REQUEST_MEDIA_TYPES (parameters ignored). */
export function isSoapContentType(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return (SOAP_REQUEST_MEDIA_TYPES as readonly string[]).includes(media);
}

/**
 * Which namespaces one SOAP endpoint uses.
 * - typesNamespace: the schema targetNamespace; the body element (e.g. <SubmitMessage>) is in it,
 *   its children are unqualified (elementFormDefault="unqualified").
 * - namespace: the targetNamespace of the WSDL definitions.
 */
export interface SoapProfile {
  readonly typesNamespace: string;
  readonly namespace: string;
}

/** The current interface, POST {base_url}/sendsms5. */
export const SENDSMS5_PROFILE: SoapProfile = {
  typesNamespace: SOAP_TYPES_NAMESPACE,
  namespace: SOAP_SERVICE_NAMESPACE,
};

/** The older description, POST {base_url}/sendsms2: one namespace for types and definitions. */
export const SENDSMS2_PROFILE: SoapProfile = {
  typesNamespace: SOAP_NAMESPACE,
  namespace: SOAP_NAMESPACE,
};

export const DEFAULT_SOAP_PROFILE: SoapProfile = SENDSMS5_PROFILE;
