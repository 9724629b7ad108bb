// Result types of the gateway client. Every request ends in exactly one Outcome:
//   ok        the gateway answered and accepted
//   rejected  the gateway answered with an error report (never retried automatically, spec 7.3.1)
//   unknown   the request may have reached a gateway but no usable answer came back; it was NOT sent
//             again, and the user must decide (spec 1, 7.3)
//   unsent    it certainly did not leave: no server reachable, TLS certificate error, cancelled
import type { ReportGroup } from '../../protocol/reports.ts';
import type { Problem } from '../../protocol/validate.ts';
import type { ServerRole } from './transport.ts';

export type OutcomeKind = 'ok' | 'rejected' | 'unknown' | 'unsent';

export type Result<T> =
  | { outcome: 'ok'; value: T; server: ServerRole }
  | { outcome: 'rejected'; code: string; reason: string; server: ServerRole }
  | { outcome: 'unknown'; reason: string; server?: ServerRole }
  | { outcome: 'unsent'; reason: string };

export type RecipientStatus = 'accepted' | 'rejected' | 'unknown' | 'not-sent';

export interface RecipientResult {
  /** Normalised number, international, digits only. */
  number: string;
  status: RecipientStatus;
  messageIdentifier?: string;
  report?: string;
  classification?: ReportGroup;
  /** What happened, for a person: the report's meaning with the server's text, or why it was not sent. */
  text: string;
  libraryNumber?: string;
  /** 1-based index of the request that carried this recipient; absent when never sent. */
  request?: number;
  server?: ServerRole;
}

export interface WholeRequestError {
  code?: string;
  message: string;
  /** 1-based request in which it happened. */
  request: number;
}

export interface SendResult {
  /** ok: every recipient accepted; failed: at least one rejected or not sent; unknown: at least one unknown. */
  outcome: 'ok' | 'failed' | 'unknown';
  recipients: RecipientResult[];
  counts: Record<RecipientStatus, number>;
  /** HTTP requests that reached (or may have reached) a server. */
  requests: number;
  /** Invalid login, out of credit, …: once, not once per recipient. */
  error?: WholeRequestError;
  /** Library number of a file stored by this sendmms. */
  libraryNumber?: string;
  duplicatesRemoved: number;
  cancelled: boolean;
}

export interface Progress {
  done: number;
  total: number;
  requests: number;
}

/** Thrown before anything is sent when the request breaks the spec: every problem at once. */
export class ValidationError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(
      `invalid request:\n${problems.map((p) => `  ${p.field}: ${p.message}${p.value !== undefined ? ` (value: ${JSON.stringify(p.value)})` : ''}`).join('\n')}`,
    );
    this.name = 'ValidationError';
    this.problems = problems;
  }
}

export function summarize(recipients: RecipientResult[]): Pick<SendResult, 'outcome' | 'counts'> {
  const counts: Record<RecipientStatus, number> = { accepted: 0, rejected: 0, unknown: 0, 'not-sent': 0 };
  for (const r of recipients) counts[r.status]++;
  const outcome =
    counts.unknown > 0 ? 'unknown' : counts.rejected > 0 || counts['not-sent'] > 0 ? 'failed' : 'ok';
  return { outcome, counts };
}
