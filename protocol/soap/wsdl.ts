// WSDL 1.1 and XSD of the SOAP interface (spec 2.6, 4.5), generated from the schema table of
// schema.ts so the description always matches what the envelope codec writes and accepts.
// Style document, use literal, soapAction "" for every operation, messages <Operation>Request and
// <Operation>Response with one part "parameters", elementFormDefault="unqualified".

import { XMLBuilder } from 'fast-xml-parser';
import {
  DEFAULT_SOAP_PROFILE,
  WSDL_NAMESPACE,
  WSDL_SOAP_NAMESPACE,
  XSD_NAMESPACE,
  type SoapProfile,
} from './namespaces.ts';
import { SOAP_OPERATIONS } from './operations.ts';
import {
  COMPLEX_TYPE_NAMES,
  SOAP_COMPLEX_TYPES,
  SOAP_ENUMS,
  SOAP_OPERATION_SCHEMAS,
  type FieldDef,
} from './schema.ts';
import { escapeXmlAttr } from './xml.ts';

// The provider's names (its published WSDL): service, port and binding "Service", portType "ServicePortType".
export const SOAP_SERVICE_NAME = 'Service';
export const SOAP_PORT_NAME = 'Service';
export const SOAP_PORT_TYPE_NAME = 'ServicePortType';
export const SOAP_BINDING_NAME = 'Service';
export const SOAP_HTTP_TRANSPORT = 'http://schemas.xmlsoap.org/soap/http';

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: false, // every attribute value below goes through escapeXmlAttr
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  format: true,
  indentBy: '  ',
});

type Node = string | NodeObject | Node[];
interface NodeObject {
  [key: string]: Node;
}

/** Prefix of the types namespace in the XSD and the WSDL. */
const T = 'types';

function attrs(values: Record<string, string | undefined>): NodeObject {
  const out: NodeObject = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined) out[`@_${name}`] = escapeXmlAttr(value);
  return out;
}

function elementDecl(field: FieldDef): NodeObject {
  const type = field.of.kind === 'scalar' ? `xs:${field.of.type}` : `${T}:${field.of.type}`;
  return attrs({
    name: field.name,
    type,
    minOccurs: field.optional ? '0' : undefined,
    maxOccurs: field.many ? 'unbounded' : undefined,
    nillable: field.nillable ? 'true' : undefined,
  });
}

function sequence(fields: ReadonlyArray<FieldDef>): NodeObject {
  return { 'xs:sequence': fields.length === 0 ? '' : { 'xs:element': fields.map(elementDecl) } };
}

/** Children of <xs:schema> (attributes included) for the profile's types namespace. */
function schemaContent(profile: SoapProfile): NodeObject {
  const simpleTypes = Object.entries(SOAP_ENUMS).map(([name, values]) => ({
    ...attrs({ name }),
    'xs:restriction': {
      ...attrs({ base: 'xs:string' }),
      'xs:enumeration': values.map((value) => attrs({ value })),
    },
  }));
  const complexTypes = COMPLEX_TYPE_NAMES.map((name) => ({
    ...attrs({ name }),
    ...sequence(SOAP_COMPLEX_TYPES[name]),
  }));
  const elements = SOAP_OPERATIONS.flatMap((op) => [
    { ...attrs({ name: op }), 'xs:complexType': sequence(SOAP_OPERATION_SCHEMAS[op].request) },
    { ...attrs({ name: `${op}Response` }), 'xs:complexType': sequence(SOAP_OPERATION_SCHEMAS[op].response) },
  ]);
  return {
    ...attrs({
      [`xmlns:${T}`]: profile.typesNamespace,
      targetNamespace: profile.typesNamespace,
      elementFormDefault: 'unqualified',
      attributeFormDefault: 'unqualified',
    }),
    'xs:simpleType': simpleTypes,
    'xs:complexType': complexTypes,
    'xs:element': elements,
  };
}

/** Standalone XML Schema of the types namespace: every type of spec 2.6 and every body element of 4.5. */
export function buildXsd(profile: SoapProfile = DEFAULT_SOAP_PROFILE): string {
  const schema = { 'xs:schema': { ...attrs({ 'xmlns:xs': XSD_NAMESPACE }), ...schemaContent(profile) } };
  return XML_DECLARATION + String(builder.build(schema));
}

export interface WsdlOptions {
  /** soap:address location, e.g. "https://gateway.example/sendsms5" */
  endpointUrl: string;
  profile?: SoapProfile;
}

/** Complete WSDL 1.1 document with the XSD embedded in <wsdl:types>. */
export function buildWsdl({ endpointUrl, profile = DEFAULT_SOAP_PROFILE }: WsdlOptions): string {
  const messages = SOAP_OPERATIONS.flatMap((op) => [
    { ...attrs({ name: `${op}Request` }), 'wsdl:part': attrs({ name: 'parameters', element: `${T}:${op}` }) },
    {
      ...attrs({ name: `${op}Response` }),
      'wsdl:part': attrs({ name: 'parameters', element: `${T}:${op}Response` }),
    },
  ]);
  const portOperations = SOAP_OPERATIONS.map((op) => ({
    ...attrs({ name: op }),
    'wsdl:input': attrs({ message: `tns:${op}Request` }),
    'wsdl:output': attrs({ message: `tns:${op}Response` }),
  }));
  const literal = { 'soap:body': attrs({ use: 'literal', parts: 'parameters' }) };
  const bindingOperations = SOAP_OPERATIONS.map((op) => ({
    ...attrs({ name: op }),
    'soap:operation': attrs({ soapAction: '', style: 'document' }),
    'wsdl:input': literal,
    'wsdl:output': literal,
  }));
  const definitions = {
    'wsdl:definitions': {
      ...attrs({
        'xmlns:wsdl': WSDL_NAMESPACE,
        'xmlns:soap': WSDL_SOAP_NAMESPACE,
        'xmlns:xs': XSD_NAMESPACE,
        'xmlns:tns': profile.namespace,
        [`xmlns:${T}`]: profile.typesNamespace,
        name: SOAP_SERVICE_NAME,
        targetNamespace: profile.namespace,
      }),
      'wsdl:documentation':
        'Messaging Gateway Service: submission, delivery receipts, inbound messages, account queries and client version.',
      'wsdl:types': { 'xs:schema': schemaContent(profile) },
      'wsdl:message': messages,
      'wsdl:portType': { ...attrs({ name: SOAP_PORT_TYPE_NAME }), 'wsdl:operation': portOperations },
      'wsdl:binding': {
        ...attrs({ name: SOAP_BINDING_NAME, type: `tns:${SOAP_PORT_TYPE_NAME}` }),
        'soap:binding': attrs({ style: 'document', transport: SOAP_HTTP_TRANSPORT }),
        'wsdl:operation': bindingOperations,
      },
      'wsdl:service': {
        ...attrs({ name: SOAP_SERVICE_NAME }),
        'wsdl:port': {
          ...attrs({ name: SOAP_PORT_NAME, binding: `tns:${SOAP_BINDING_NAME}` }),
          'soap:address': attrs({ location: endpointUrl }),
        },
      },
    },
  };
  return XML_DECLARATION + String(builder.build(definitions));
}
