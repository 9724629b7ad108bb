/**
 * The gateway interface as code: one import point for gateway, app main process and renderer.
 * No I/O and no node:* modules anywhere below protocol/.
 */
export * from './limits.ts';
export * from './form.ts';
export * from './reports.ts';
export * from './responses.ts';
export * from './fields.ts';
export * from './validate.ts';
export * from './msisdn.ts';
export * from './sms.ts';
export * from './soap/index.ts';

// Names that both the form modules and soap/ export: the form ones win here, the SOAP ones are
// re-exported with a Soap prefix (import from './soap/index.ts' for the plain names).
export type { DeliveryOption, SiAction } from './limits.ts';
export type { FieldKind } from './fields.ts';
export type {
  DeliveryOption as SoapDeliveryOption,
  SiAction as SoapSiAction,
  FieldKind as SoapFieldKind,
} from './soap/index.ts';
