// GatewayClient's options, the paths it posts to and the answer shape of a send (./gateway-client.ts
// re-exports each): apart so that the client's file holds its operations.
import { OPERATION_PATHS } from '../../protocol/fields.ts';
import { SOAP_PATHS } from '../../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type { BatchInterpretation } from './interpret.ts';
import type { TransportOptions, UnknownTransportCause } from './transport.ts';

export const PATHS = {
  sendsms: OPERATION_PATHS.sendsms,
  sendmms: OPERATION_PATHS.sendmms,
  queryaccount: OPERATION_PATHS.queryaccount,
  manageaccount: OPERATION_PATHS.manageaccount,
  /** SOAP interface version 5 (spec 4.5, 9.1). */
  soap: SOAP_PATHS.sendsms5,
} as const;

export interface GatewayClientOptions extends TransportOptions {
  username: string;
  pin: string;
  /** ISO 3166 alpha-2 country for national numbers such as 07700 900123. */
  defaultCountry?: string | undefined;
  /** Path of the SOAP endpoint below the base URL; default /sendsms5. */
  soapPath?: string | undefined;
  /** Pins both SOAP namespaces: the gateway's WSDL is then not read. */
  soapProfile?: SoapProfile | undefined;
  /**
   * Pins the SOAP types namespace (a setting or the deploy policy); the definitions namespace is the
   * provider's. Without a pin the client reads the gateway's WSDL on its first SOAP call.
   */
  soapTypesNamespace?: string | undefined;
  /** Recipients per request; at most (and by default) the spec's 350. */
  batchSize?: number | undefined;
}

/** A sendFormFields answer, or why none: unsent (surely not sent), unknown (may have arrived: never re-sent). */
export type FormSendOutcome =
  | { outcome: 'answered'; value: BatchInterpretation }
  | { outcome: 'unsent'; reason: string }
  // Issue 25: why it is unknown, for words by cause (the app records it with the batch).
  | { outcome: 'unknown'; reason: string; cause: UnknownTransportCause | 'answer-unreadable' };
