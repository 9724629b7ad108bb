// The app's domain model (issue 27), contacts, groups, templates, search, and the gateway's address books: the types the store, the services, the
// preload API (preload/api.ts re-exports each) and the renderer share. Types only.
import type { MessageRecord, Millis } from './messages.ts';

export interface Contact {
  id: number;
  name: string;
  /** Normalised; unique among contacts (duplicate detection). */
  number: string;
  /** As the user typed or imported it. */
  numberTyped: string;
  email: string;
  notes: string;
  createdAt: Millis;
  updatedAt: Millis;
}

export interface ContactInput {
  name: string;
  number: string;
  email?: string;
  notes?: string;
}

/** Which CSV column feeds which contact field; `name` may join several columns (first, last). */
export interface CsvColumnMapping {
  name?: string | string[];
  number: string;
  email?: string;
  notes?: string;
  /** issue 13: a column of group names (separated by ; or |); missing groups are created. */
  groups?: string;
}

export type DuplicatePolicy = 'skip' | 'update';

export interface ImportOptions {
  /** ISO 3166 alpha-2 country of numbers written nationally (07700 …). */
  defaultCountry?: string;
  /** What to do with a row whose number is already a contact (default 'skip'). */
  onDuplicate?: DuplicatePolicy;
}

export interface ImportResult {
  added: Contact[];
  updated: Contact[];
  /** Rows (1-based, data rows / vCard entries) whose number is already a contact or came earlier in the file. */
  duplicates: Array<{ row: number; number: string; existing: Contact }>;
  invalid: Array<{ row: number; input: string; reason: string }>;
  /** issue 13: the groups a Group column named, whether each was created, and how many contacts joined it. */
  groups?: Array<{ id: number; name: string; created: boolean; added: number }>;
}

/** issue 13: a contact deleted by contacts.deleteMany, with its groups, for contacts.restore (undo). */
export interface DeletedContact {
  contact: Contact;
  groupIds: number[];
}

export interface Group {
  id: number;
  name: string;
  createdAt: Millis;
  memberCount: number;
}

export interface Template {
  id: number;
  name: string;
  text: string;
  createdAt: Millis;
  updatedAt: Millis;
}

/** A message matching a search; a send to many recipients is one hit (its newest recipient). */
export interface MessageHit {
  message: MessageRecord;
  /** The matching text with matches between \u0002 and \u0003 (the renderer highlights them). */
  snippet: string;
  contactName: string | null;
}

/**
 * Issue 27: a send (an outbox job) of the account whose text or label matches a search: one hit
 * however many it went to, found even where none of its recipients has an Inbox conversation.
 */
export interface SendHit {
  jobId: number;
  createdAt: Millis;
  /** The job's text (a mail merge's template), matches between \u0002 and \u0003. */
  snippet: string;
  /** What a rich send is, in words (protocol/content-label.ts); null for plain text. */
  label: string | null;
  /** Its numbers (address books and Cc/Bcc not counted), as History counts them. */
  recipientCount: number;
  /** The send it resent (a campaign's resend), or null. */
  resendOf: number | null;
}

export interface SearchResults {
  query: string;
  messages: MessageHit[];
  contacts: Contact[];
  /** Issue 27: the account's sends matching, newest first. */
  sends: SendHit[];
}

export interface ServerBookMember {
  number: string;
  givenName: string | null;
  familyName: string | null;
  groups: string[];
}

/** One address book at the gateway: its members and groups (recipient token "book" or "book::group"). */
export interface ServerAddressBook {
  name: string;
  members: ServerBookMember[];
  groups: Array<{ name: string; members: number }>;
}
