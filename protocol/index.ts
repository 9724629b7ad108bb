/**
 * The gateway interface as code: one import point for gateway, app main process and renderer.
 * No I/O and no node:* modules anywhere below protocol/.
 */
export * from './limits.ts';
export * from './form.ts';
export * from './reports.ts';
export * from './responses.ts';
export * from './fields.ts';
export * from './content.ts';
export * from './validate.ts';
export * from './msisdn.ts';
export * from './sms.ts';
export * from './soap/index.ts';
export * from './smart/index.ts';

// Names exported by more than one module: the form API's (limits.ts, fields.ts) and the SOAP
// types' win here; the others are re-exported with a prefix. Import a module directly for its
// own plain names.
export { SI_ACTIONS } from './limits.ts';
export type { DeliveryOption, SiAction } from './limits.ts';
export type { FieldKind } from './fields.ts';
export type { ServiceIndication } from './soap/index.ts';
export type {
  DeliveryOption as SoapDeliveryOption,
  SiAction as SoapSiAction,
  FieldKind as SoapFieldKind,
} from './soap/index.ts';
export { SI_ACTIONS as WBXML_SI_ACTIONS } from './smart/index.ts';
export type {
  SiAction as WbxmlSiAction,
  ServiceIndication as SmartServiceIndication,
} from './smart/index.ts';
