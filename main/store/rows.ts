// Row shapes of the app database and their mapping to the domain types (domain/).
import { contentLabel } from '../../protocol/content-label.ts';
import type { ReportGroup } from '../../protocol/reports.ts';
import type {
  Contact,
  ContentKind,
  Direction,
  MessageRecord,
  MessageStatus,
  Millis,
  OutboxBatch,
  BatchState,
  UnknownCause,
} from '../../domain/index.ts';

type Nullable<T> = T | null;

export interface MessageRow {
  id: number;
  conversation_id: number;
  direction: string;
  kind: string;
  peer: string;
  local: Nullable<string>;
  text: string;
  created_at: number;
  status: string;
  job_id: Nullable<number>;
  batch_id: Nullable<number>;
  position: Nullable<number>;
  message_identifier: Nullable<string>;
  report: Nullable<string>;
  report_text: Nullable<string>;
  classification: Nullable<string>;
  sent_at: Nullable<number>;
  answered_at: Nullable<number>;
  receipt_report: Nullable<string>;
  receipt_at: Nullable<number>;
  sent_timestamp: Nullable<string>;
  gateway_id: Nullable<string>;
  dedupe_key: Nullable<string>;
  read: number;
  automatic?: number;
  label?: Nullable<string>;
}

export const MESSAGE_COLUMNS =
  'm.id, m.conversation_id, m.direction, m.kind, m.peer, m.local, m.text, m.created_at, m.status, m.job_id, ' +
  'm.batch_id, m.position, m.message_identifier, m.report, m.report_text, m.classification, m.sent_at, ' +
  'm.answered_at, m.receipt_report, m.receipt_at, m.sent_timestamp, m.gateway_id, m.dedupe_key, m.read, m.automatic, m.label';

export function toMessage(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    direction: row.direction as Direction,
    kind: row.kind as ContentKind,
    peer: row.peer,
    local: row.local,
    text: row.text,
    createdAt: row.created_at as Millis,
    status: row.status as MessageStatus,
    read: row.read === 1,
    jobId: row.job_id,
    batchId: row.batch_id,
    messageIdentifier: row.message_identifier,
    report: row.report,
    reportText: row.report_text,
    classification: row.classification as ReportGroup | null,
    sentAt: row.sent_at,
    answeredAt: row.answered_at,
    receiptReport: row.receipt_report,
    receiptAt: row.receipt_at,
    sentTimestamp: row.sent_timestamp,
    gatewayId: row.gateway_id,
    // Sent by a keyword auto-reply rule (issue 12); absent on every other message.
    ...(row.automatic === 1 ? { automatic: true } : {}),
    // Issue 26: what a rich message is; rows journaled before the label was stored name their kind.
    label: row.label ?? contentLabel({ kind: row.kind as ContentKind }),
  };
}

export interface ContactRow {
  id: number;
  name: string;
  number: string;
  number_typed: string;
  email: string;
  notes: string;
  created_at: number;
  updated_at: number;
}

export const CONTACT_COLUMNS =
  'c.id, c.name, c.number, c.number_typed, c.email, c.notes, c.created_at, c.updated_at';

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    numberTyped: row.number_typed,
    email: row.email,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface BatchRow {
  id: number;
  job_id: number;
  seq: number;
  state: string;
  created_at: number;
  started_at: Nullable<number>;
  finished_at: Nullable<number>;
  reason: Nullable<string>;
  /** Issue 25 (migration 046). */
  unknown_cause?: Nullable<string>;
  /** Issue 16 (migration 013). */
  extra_fields?: Nullable<string>;
  reach?: Nullable<number>;
  extra_answered?: Nullable<number>;
  extra_accepted?: Nullable<number>;
  extra_rejected?: Nullable<number>;
  /** Issue 15 (migration 014): the gateway's answer, held until the results are stored. */
  answer?: Nullable<string>;
  /** Issue 27 item 6 (migration 059): a batch not ended yet's lean numbers by position (JSON). */
  lean?: Nullable<string>;
}

export function toBatch(row: BatchRow, recipients: string[]): OutboxBatch {
  const extras =
    row.extra_fields === null || row.extra_fields === undefined
      ? {}
      : {
          extras: {
            fields: JSON.parse(row.extra_fields) as Record<string, string>,
            reach: row.reach ?? null,
            answered: row.extra_answered ?? null,
            accepted: row.extra_accepted ?? null,
            rejected: row.extra_rejected ?? null,
          },
        };
  return {
    id: row.id,
    jobId: row.job_id,
    seq: row.seq,
    state: row.state as BatchState,
    recipients,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    reason: row.reason,
    unknownCause: row.state === 'unknown' ? ((row.unknown_cause ?? 'failed') as UnknownCause) : null,
    ...extras,
  };
}

/** node:sqlite returns rows as plain records; this names the shape we selected. */
export function rowsAs<T>(rows: unknown[]): T[] {
  return rows as T[];
}
export function rowAs<T>(row: unknown): T | undefined {
  return row as T | undefined;
}
