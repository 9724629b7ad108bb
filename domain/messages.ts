// The app's domain model (issue 27), messages and conversations (and the paging every list shares): the types the store, the services, the
// preload API (preload/api.ts re-exports each) and the renderer share. Types only.
import type { ContentKind } from '../protocol/content.ts';
import type { ReportGroup } from '../protocol/reports.ts';

export type Millis = number;

/** A page of a list and the cursor of the next page (null on the last page). */
export interface Page<T, C> {
  items: T[];
  next: C | null;
}

// ---------------------------------------------------------------------------------------------
// Messages and conversations

export type Direction = 'in' | 'out';

/** What a message carries: plain or flash text, or one of the sendmms content types (spec 2.4). */
export type { ContentKind } from '../protocol/content.ts';

/**
 * Status of one outbound message (one recipient of one send):
 * pending (journaled, not requested yet) → sending (request under way) → accepted | queued
 * (gateway report -3 / -2 / 99) | rejected (an error report) | unknown (the request may or may not
 * have reached the gateway: crash, reset, time-out) → delivered | failed (delivery receipt).
 */
export type OutboundStatus =
  'pending' | 'sending' | 'accepted' | 'queued' | 'rejected' | 'unknown' | 'delivered' | 'failed';
export type InboundStatus = 'received';
export type MessageStatus = OutboundStatus | InboundStatus;

export interface MessageRecord {
  id: number;
  conversationId: number;
  direction: Direction;
  kind: ContentKind;
  /** The other side: the recipient (out) or the sender (in). */
  peer: string;
  /** Our side: the ReplyTo used (out) or the number the message was sent to (in). */
  local: string | null;
  text: string;
  /** When it was journaled (out) or received (in). */
  createdAt: Millis;
  status: MessageStatus;
  /** Inbound: read by the user. Outbound messages are always read. */
  read: boolean;
  // outbound
  jobId: number | null;
  batchId: number | null;
  messageIdentifier: string | null;
  report: string | null;
  reportText: string | null;
  classification: ReportGroup | null;
  sentAt: Millis | null;
  answeredAt: Millis | null;
  receiptReport: string | null;
  receiptAt: Millis | null;
  // inbound
  /** The gateway's Timestamp1 of an inbound message, as given. */
  sentTimestamp: string | null;
  gatewayId: string | null;
  /** Sent by a keyword auto-reply rule (issue 12). */
  automatic?: boolean;
  /** What a rich message is ("Ringtone: Nokia tune", protocol/content-label.ts); null for plain text. */
  label: string | null;
  /**
   * Issue 28, office mode: an outbound message another desk of the office sent (its send is read-only
   * here): that desk's name. Absent for this desk's own messages.
   */
  sentFrom?: string;
}

export interface ConversationSummary {
  id: number;
  peer: string;
  /** The contact whose normalised number is `peer`, if any. */
  contactId: number | null;
  contactName: string | null;
  unreadCount: number;
  /** Marked unread by the user (without an unread message). */
  markedUnread: boolean;
  hasUnread: boolean;
  lastActivityAt: Millis;
  /** Hidden from the inbox until the next inbound message (or unarchived). */
  archived: boolean;
  lastMessage: Pick<
    MessageRecord,
    'id' | 'direction' | 'kind' | 'text' | 'status' | 'createdAt' | 'label' | 'sentFrom'
  > | null;
}

/** Keyset cursor of the conversation list (most recent activity first). */
export interface ConversationCursor {
  lastActivityAt: Millis;
  id: number;
}

/** Which conversations the list shows: the inbox (default), its unread ones, or the archived ones. */
export type ConversationFilter = 'all' | 'unread' | 'archived';

/** What inbox.exportMessages exports: a date range (`from` inclusive, `to` exclusive) and/or a search. */
export interface InboxExportArgs {
  from?: Millis;
  to?: Millis;
  query?: string;
}

/** Keyset cursor of a thread (newest first). */
export interface ThreadCursor {
  createdAt: Millis;
  id: number;
}

/** A message collected from the gateway (CollectMessages MOMessage, spec 2.6 / 6.2). */
export interface InboundMessageInput {
  /** The sender (MOMessage ReplyTo): normalised when it is a number, kept as given otherwise. */
  from: string;
  /** The number it was sent to (MOMessage SendTo). */
  to: string;
  text: string;
  /** MOMessage Timestamp1 as the gateway sent it. */
  timestamp: string;
  /** The gateway's id of the message when it has one: the dedupe key then. */
  gatewayId?: string;
  kind?: ContentKind;
  receivedAt?: Millis;
}

export interface InboundStoreResult {
  stored: boolean;
  message: MessageRecord;
}

export interface DeliveryReceiptInput {
  messageIdentifier: string;
  /** SubmitDeliveryReceipt Report. */
  report: string;
  /** SubmitDeliveryReceipt Timestamp1, parsed. */
  at?: Millis;
  sentTo?: string;
}
