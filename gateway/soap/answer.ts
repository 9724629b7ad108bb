// The answer of a SOAP operation once it has run (issue 17, item 14): written so that it cannot fail
// after a commit, and, should it still fail, a fault that never says "not processed".
import { buildResponseEnvelope } from '../../protocol/soap/envelope.ts';
import type { SoapProfile } from '../../protocol/soap/namespaces.ts';
import type { SoapOperation, SoapResponses } from '../../protocol/soap/operations.ts';
import { replaceIllegalXmlChars } from '../../protocol/soap/xml.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteResponse } from '../http.ts';

/** Operations whose handler may commit (send, charge, store, mark collected) before it answers. */
export const STATE_CHANGING: ReadonlySet<SoapOperation> = new Set([
  'SubmitMessage',
  'DeliverMessage',
  'SubmitDeliveryReceipt',
  'CollectMessages',
]);

export const MAY_HAVE_BEEN_PROCESSED =
  'the request may have been processed: check (history, delivery receipts) before sending it again';

/** `value` with every string made writable in XML (characters XML 1.0 cannot carry become U+FFFD). */
export function xmlSafe<T>(value: T): T {
  if (typeof value === 'string') return replaceIllegalXmlChars(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => xmlSafe(v)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, xmlSafe(v)])) as T;
  }
  return value;
}

/**
 * The answer of a handled operation. It is written after the operation committed, so it must not fail:
 * a string XML cannot carry (a control character in a stored text) is written with U+FFFD in its
 * place, and should writing still fail the fault says the request was processed, never that it was not.
 */
export function respond(
  handled: Handled,
  profile: SoapProfile,
  ctx: GatewayContext,
  out: {
    xml: (body: string, status: number, log: Record<string, unknown>) => RouteResponse;
    fault: (code: 'soap:Server', message: string, log: Record<string, unknown>) => RouteResponse;
  },
): RouteResponse {
  const log = { operation: handled.op, ...handled.log };
  try {
    return out.xml(buildResponseEnvelope(handled.op, handled.response as never, profile), 200, log);
  } catch (first) {
    try {
      return out.xml(buildResponseEnvelope(handled.op, xmlSafe(handled.response) as never, profile), 200, {
        ...log,
        replacedCharacters: true,
      });
    } catch (err) {
      ctx.log.error('soap answer could not be written', {
        operation: handled.op,
        error: errorText(err),
        first: errorText(first),
      });
      const id =
        'MessageIdentifier' in handled.response
          ? ` (MessageIdentifier ${handled.response.MessageIdentifier})`
          : '';
      return out.fault(
        'soap:Server',
        `The request was processed${id}, but its answer could not be written (${errorText(err)}); do not send it again`,
        { ...log, committed: true },
      );
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What a SOAP operation's handler gives back: the operation's response, and what to log. */
export type Handled = {
  [K in SoapOperation]: { op: K; response: SoapResponses[K]; log?: Record<string, unknown> };
}[SoapOperation];
