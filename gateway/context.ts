// What every route, the submit pipeline, the scheduler and the network simulator share.
import type { DatabaseSync } from 'node:sqlite';
import type { SoapProfile } from '../protocol/soap/namespaces.ts';
import type { Logger } from './log.ts';
import type { Account } from './accounts.ts';
import type { OutboundContent } from './content.ts';
import type { NumberChecker } from './numbers.ts';

/** Release served by the SOAP operation MobileMessengerVersion (spec 9.3). */
export interface ReleaseInfo {
  version: string;
  releaseNotice: string;
  downloadUrl: string;
  /** ISO 8601 date-time. */
  releaseDate: string;
}

export interface GatewayConfig {
  /** The service global default ReplyTo: always in every account's permitted ReplyTo list (spec 2.1). */
  defaultReplyTo: string;
  /** Delay before the simulated network produces delivery receipts. */
  receiptDelayMs: number;
  release: ReleaseInfo;
  /** Instance name ("primary", "secondary") for logs and scheduler claims. */
  instance: string;
  /** Country assumed for numbers written without a country code in imports (never in requests). */
  defaultCountry: string;
  /** Namespaces of /sendsms5 (default: the provider's published pair); /sendsms2 keeps its own. */
  soapProfile: SoapProfile;
}

/** One stored outbound message: one recipient of one request (table `messages`). */
export interface MessageRow {
  id: number;
  messageIdentifier: string;
  accountId: number;
  /** The account whose credit paid (the parent for SHARED children). */
  chargedAccountId: number;
  recipient: string;
  replyTo: string | null;
  deliveryOption: string;
  content: OutboundContent;
  parts: number;
  /** Cost in ten-thousandths of GBP. */
  cost: number;
  status: string;
  libraryNumber: string | null;
  /** ISO time the message is due (null = immediately). */
  scheduledAt: string | null;
  createdAt: string;
}

/**
 * The simulated mobile network (gateway/network/, gateway-rich). Core only needs these members; the
 * concrete NetworkSimulator has more (injectInbound, ...).
 */
export interface NetworkLike {
  /** Number of SMS parts `content` needs (charging unit). */
  partsFor(content: OutboundContent): number;
  /** Hand an accepted message to the network now. Must not throw for a well-formed row. */
  dispatch(message: MessageRow): void;
  /** Drain the network queue (table network_queue) soon: a request just committed an entry. */
  drainSoon?(): void;
  /** Drain the network queue now (returns messages handed over). */
  drainQueue?(): number;
  close(): void | Promise<void>;
}

export interface SchedulerLike {
  /** Wake the scheduler (a job was added). */
  poke(): void;
  close(): void;
}

export interface GatewayContext {
  db: DatabaseSync;
  dataDir: string;
  config: GatewayConfig;
  log: Logger;
  network: NetworkLike;
  scheduler: SchedulerLike;
  profile: SoapProfile;
  sandbox: boolean;
  /** Recipient number checks, split across a worker thread for large lists. */
  numbers: NumberChecker;
  /** Authenticated account helper kept here so rich routes don't re-implement it. */
  authenticate(username: string | undefined, pin: string | undefined): Promise<Account | null>;
}
