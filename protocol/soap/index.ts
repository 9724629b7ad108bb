// SOAP interface of the gateway (spec 2.6, 4.5): namespaces, typed operations, envelopes, WSDL/XSD.
export * from './namespaces.ts';
export * from './operations.ts';
export * from './errors.ts';
export * from './envelope.ts';
export * from './wsdl.ts';
export * from './wsdl-read.ts';
export { SOAP_COMPLEX_TYPES, SOAP_ENUMS, SOAP_OPERATION_SCHEMAS } from './schema.ts';
export type {
  FieldDef,
  FieldKind,
  ComplexTypeName,
  EnumTypeName,
  OperationSchema,
  ScalarType,
} from './schema.ts';
