// The app's domain model (issue 27), the outbox journal and history: jobs, batches, recipients, campaigns: the types the store, the services, the
// preload API (preload/api.ts re-exports each) and the renderer share. Types only.
import type { Content } from '../protocol/content.ts';
import type { ReportGroup } from '../protocol/reports.ts';
import type { Millis, OutboundStatus } from './messages.ts';

export type { DeliveryOption } from '../protocol/limits.ts';

/**
 * What one send carries (protocol/content.ts Content): text with its delivery option, or one kind
 * of sendmms content as its fields; the gateway fields are built from it by the sending loop.
 */
export type OutboxContent = Content;

export type BatchState = 'pending' | 'sending' | 'accepted' | 'rejected' | 'unknown';

/**
 * Issue 25: what made a batch's outcome unknown (app migration 046), for words by cause
 * (renderer/send-outcome.ts): the app stopped while it was out; the connection dropped after the
 * request may have been sent; no answer in time; an answer that could not be read (or an HTTP
 * error); the gateway answered without a result for its recipients; the answer came but could not
 * be stored; the request failed in another way.
 */
export type UnknownCause =
  | 'app-stopped'
  | 'connection-lost'
  | 'timed-out'
  | 'answer-unreadable'
  | 'no-result'
  | 'not-stored'
  | 'failed';

export interface OutboxBatch {
  id: number;
  jobId: number;
  seq: number;
  state: BatchState;
  /** The batch's SendTo list, in order (at most LIMITS.maxRecipientsPerRequest). */
  recipients: string[];
  createdAt: Millis;
  startedAt: Millis | null;
  finishedAt: Millis | null;
  reason: string | null;
  /** Issue 25: why its outcome is unknown (state 'unknown' only; else null). */
  unknownCause: UnknownCause | null;
  /**
   * Issue 16: what this batch sends beyond its own numbers — a server address book (one per batch)
   * or the first batch's Cc/Bcc — never expanded into numbers; absent for a batch of numbers only.
   */
  extras?: BatchExtras;
}

/** A batch's address book and/or Cc/Bcc fields, and what the gateway answered for them. */
export interface BatchExtras {
  /** The form fields as sent: SendToAddressBook, SendCc, SendBcc, SendCcAddressBook, SendBccAddressBook. */
  fields: Record<string, string>;
  /** Recipients they reach as QueryAddressBook counted when journaled; null when not sized. */
  reach: number | null;
  /** The gateway's records for them (null until answered), and how many it accepted or rejected. */
  answered: number | null;
  accepted: number | null;
  rejected: number | null;
}

export type StatusCounts = Record<OutboundStatus, number>;

export interface OutboxJob {
  id: number;
  createdAt: Millis;
  content: OutboxContent;
  resendOf: number | null;
  /** The account it was sent on (null when that account was removed). */
  accountId: string | null;
  recipientCount: number;
  batchCount: number;
  counts: StatusCounts;
  /**
   * Issue 16: recipients its address books and Cc/Bcc reach beyond `recipientCount` (absent when it
   * has none; null when one was not sized).
   */
  extraReach?: number | null;
  /**
   * Issue 26: its failed recipients (rejected or failed) that a later resend of the campaign tried
   * again (absent when none): their latest attempt is that resend's, so History does not count them failed here.
   */
  failedRetried?: number;
  /** Issue 25: why its unknown batches are unknown, the cause of the most batches first (empty when none). */
  unknownCauses: UnknownCause[];
  /**
   * Issue 28, office mode: the desk that sent it (absent on a desk of its own). A send of another
   * desk (`here` false) is read-only here: only that desk sends, continues or resends it.
   */
  sentBy?: { desk: string; here: boolean };
}

/** One recipient's result in a gateway response (format 3 record, spec 2.5), or its absence. */
export interface RecipientResult {
  /** The recipient; when absent, results are matched to the batch's SendTo list by position. */
  to?: string;
  messageIdentifier?: string;
  /** The report code; absent when the gateway's answer gave none for this recipient (then unknown). */
  report?: string;
  text?: string;
  /** The client knows this recipient's request never left (refused before sending): rejected, not unknown. */
  notSent?: boolean;
}

export interface RecipientOutcome {
  to: string;
  status: OutboundStatus;
  messageIdentifier: string | null;
  report: string | null;
  reportText: string | null;
  classification: ReportGroup | null;
  receiptReport: string | null;
  receiptAt: Millis | null;
  /** Issue 17: accepted, and no delivery receipt an hour after the send ("no receipt yet"). */
  receiptOverdue: boolean;
}

export interface HistoryFilter {
  status?: OutboundStatus | OutboundStatus[];
  jobId?: number;
}

/** Continue sending (issue 17): the job, and how many never-requested recipients had opted out since. */
export interface ContinueResult {
  job: OutboxJob;
  optedOut: number;
}

/** One recipient of a campaign: its latest attempt (`jobId`), after `attempts` sends to it. */
export interface CampaignRow extends RecipientOutcome {
  jobId: number;
  attempts: number;
  /** On the signed-in account's opt-out list now: never sent to again (resend to failed leaves it out). */
  optedOut: boolean;
}

export interface Campaign {
  /** The first send. */
  job: OutboxJob;
  /** The first send and its resends, oldest first. */
  jobIds: number[];
  /** One row per recipient, in the first send's order. */
  rows: CampaignRow[];
  /** `rows` counted by status (the same rows a table shows). */
  counts: StatusCounts;
}

export interface CampaignResend {
  job: OutboxJob;
  /** Failed recipients left out because they are on the opt-out list. */
  optedOut: number;
}

// issue 25: a send whose sending loop stopped (the journal refused a write: a full disk, an I/O error)

export interface SendHalt {
  jobId: number;
  /** What the journal said ("database or disk is full"). */
  reason: string;
  at: Millis;
}
