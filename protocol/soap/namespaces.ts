// XML namespaces of the SOAP interface (spec 4.5, 9.1). The spec leaves the URIs as placeholders
// ({soap_namespace}, {soap_types_namespace}); these are the project's choices. A deployment that
// needs other URIs passes its own SoapProfile to the builders and to buildWsdl/buildXsd.

/** {soap_types_namespace}: namespace of the request/response body elements of /sendsms5. */
export const SOAP_TYPES_NAMESPACE = 'http://messaging-gateway.example/sendsms5/types';

/** {soap_namespace}: namespace of the older SOAP description served at /sendsms2. */
export const SOAP_NAMESPACE = 'http://messaging-gateway.example/sendsms2';

/** targetNamespace of the sendsms5 WSDL definitions (messages, portType, binding, service). */
export const SOAP_SERVICE_NAMESPACE = 'http://messaging-gateway.example/sendsms5';

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
