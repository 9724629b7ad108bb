// The request shapes GatewayClient takes, and the form fields they become (spec 4.1 to 4.4): what
// each request sends, before protocol/validate.ts checks it. No I/O here.
import { formatUtcDateTime } from '../../protocol/limits.ts';
import type { DeliveryOption } from '../../protocol/limits.ts';
import { childAccountFields } from '../../protocol/child-account.ts';
import type { ChildAccountInput } from '../../protocol/child-account.ts';
import { addressBookFields, contentFields, optionFields } from './mms.ts';
import type { MmsContent, MmsOptions } from './mms.ts';
import { prepareRecipients } from './recipients.ts';
import { ValidationError } from './results.ts';
import type { Progress } from './results.ts';

export type Fields = Record<string, string>;

/** The account a request is sent as. */
export interface Login {
  username: string;
  pin: string;
}

export interface CampaignOptions {
  /** Called after each request: recipients done / total. */
  onProgress?: (progress: Progress) => void;
  /** Checked between requests: a request in flight is completed, the rest are not sent. */
  signal?: AbortSignal;
}

export interface ScheduleOptions {
  /** Minutes, 1 to 10080. */
  sendTimeDelay?: number;
  /** UTC; a Date or YYYY-MM-DDTHH:MM:SS. */
  sendTimeAbsolute?: Date | string;
}

export interface RecipientOptions {
  /** Numbers as typed: international or national (with defaultCountry). */
  to?: readonly string[];
  /**
   * The numbers of `to` were already normalised by protocol/msisdn.ts (e.g. taken from the contact
   * store): only their form is checked, they are not parsed again.
   */
  recipientsNormalized?: boolean;
}

export interface SmsRequest extends ScheduleOptions, RecipientOptions {
  /** Address book name, optionally name::group. */
  toAddressBook?: string;
  text: string;
  flash?: boolean;
  replyTo?: string;
  deliveryOption?: DeliveryOption;
}

export interface MmsRequest extends ScheduleOptions, MmsOptions, RecipientOptions {
  toAddressBook?: string;
  replyTo?: string;
  content: MmsContent;
}

export interface DeprecatedSmsRequest {
  to: readonly string[];
  text: string;
}

export type ChildAccountRequest = ChildAccountInput;

export type TransferAmount = { currency: string } | { messages: number };

export interface Credit {
  currency: string;
  /** Decimal as sent by the gateway (four places). */
  credit: string;
}

/** The fields every request of a campaign carries, and those only its first request carries. */
export interface CampaignFields {
  base: Fields;
  /** Cc/Bcc and address books go with the first request only, so nobody gets the message twice. */
  first: Fields;
  /** Recipients of `first` (Cc, Bcc), labelled in the first request's results. */
  extraLabels: string[];
}

/** The address books (SendToAddressBook, SendCcAddressBook, SendBccAddressBook) of `first`. */
export function addressBooksOf(first: Fields): string[] {
  return [first.SendToAddressBook, first.SendCcAddressBook, first.SendBccAddressBook].filter(
    (b): b is string => b !== undefined && b !== '',
  );
}

export function smsFields(login: Login, req: SmsRequest): CampaignFields {
  const base: Fields = { Username: login.username, PIN: login.pin };
  base[req.flash === true ? 'FlashMessage' : 'Message'] = req.text;
  if (req.replyTo !== undefined) base.ReplyTo = req.replyTo;
  if (req.deliveryOption !== undefined) base.DeliveryServiceOption = req.deliveryOption;
  Object.assign(base, scheduleFields(req));
  const first: Fields = {};
  if (req.toAddressBook !== undefined) first.SendToAddressBook = req.toAddressBook;
  return { base, first, extraLabels: [] };
}

export function mmsFields(login: Login, req: MmsRequest, defaultCountry: string | undefined): CampaignFields {
  const base: Fields = { Username: login.username, PIN: login.pin, ...optionFields(req) };
  if (req.replyTo !== undefined) base.ReplyTo = req.replyTo;
  Object.assign(base, scheduleFields(req), contentFields(req.content));
  const first: Fields = {};
  const extraLabels: string[] = [];
  for (const [field, list] of [
    ['SendCc', req.sendCc],
    ['SendBcc', req.sendBcc],
  ] as const) {
    if (list === undefined || list.length === 0) continue;
    const prepared = prepareRecipients(list, defaultCountry, field);
    if (prepared.problems.length > 0) throw new ValidationError(prepared.problems);
    first[field] = prepared.numbers.join(',');
    extraLabels.push(...prepared.numbers);
  }
  if (req.toAddressBook !== undefined) first.SendToAddressBook = req.toAddressBook;
  Object.assign(first, addressBookFields(req));
  return { base, first, extraLabels };
}

export function createChildFields(login: Login, req: ChildAccountRequest): Fields {
  return { Username: login.username, PIN: login.pin, ...childAccountFields(req) };
}

export function deleteChildFields(login: Login, childUsername: string): Fields {
  return { Username: login.username, PIN: login.pin, DeleteChildAccountUsername: childUsername };
}

export function transferFields(login: Login, toUsername: string, amount: TransferAmount): Fields {
  const fields: Fields = {
    Username: login.username,
    PIN: login.pin,
    TransferToAccountUsername: toUsername,
  };
  if ('currency' in amount) fields.TransferCurrencyAmount = amount.currency;
  else fields.TransferMessagesAmount = String(amount.messages);
  return fields;
}

export function scheduleFields(s: ScheduleOptions): Fields {
  const f: Fields = {};
  if (s.sendTimeDelay !== undefined) f.SendTimeDelay = String(s.sendTimeDelay);
  if (s.sendTimeAbsolute !== undefined) {
    f.SendTimeAbsolute =
      typeof s.sendTimeAbsolute === 'string'
        ? s.sendTimeAbsolute
        : formatUtcDateTime(s.sendTimeAbsolute.getTime());
  }
  return f;
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
