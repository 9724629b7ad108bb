// What a send would do before it does it: the recipients it reaches (numbers normalised, contacts and
// groups expanded, duplicates removed, the invalid listed), the parts per recipient and the messages
// it costs against the credit the account has. sender.ts journals exactly `numbers`; Compose asks
// `send.estimate` first and confirms a large send or one the credit does not cover (issue 12).
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { analyzeText } from '../../protocol/sms.ts';
import type { AppStore } from '../store/app-store.ts';
import { formatMoney, parseMoney } from '../../protocol/money.ts';
import type { Credit, DeliveryRate, OutboxContent, SendEstimate, SendRequest } from '../../domain/index.ts';

export interface RecipientPlan {
  /** Distinct normalised numbers, in the order given (numbers, then contacts, then groups). */
  numbers: string[];
  invalid: Array<{ input: string; reason: string }>;
  /** Entries that named a number already in `numbers`. */
  duplicates: number;
  /** Numbers left out as opted out (not in `numbers`). */
  optedOut?: number;
}

/**
 * The typed (or pasted) recipients of a request normalised, duplicates counted: the part of a plan
 * that depends on nothing but the inputs and the default country. Issue 27 item 6: the submit that
 * follows an estimate of the same request reuses it (send-planner.ts), so a typed number is
 * normalised once per send, not once by the estimate and again by the submit.
 */
export interface TypedRecipients {
  /** The inputs and the country it was made for (a reuse must match both). */
  inputs: readonly string[];
  country: string | undefined;
  numbers: readonly string[];
  invalid: ReadonlyArray<{ input: string; reason: string }>;
  duplicates: number;
}

/** `inputs` normalised with `country` (protocol/msisdn.ts), distinct numbers in their order. */
export function planTyped(inputs: readonly string[], country: string | undefined): TypedRecipients {
  const numbers: string[] = [];
  const seen = new Set<string>();
  const invalid: Array<{ input: string; reason: string }> = [];
  let duplicates = 0;
  for (const input of inputs) {
    const n = normalizeMsisdn(input, country);
    if (!n.ok) invalid.push({ input, reason: n.reason });
    else if (seen.has(n.msisdn)) duplicates++;
    else {
      seen.add(n.msisdn);
      numbers.push(n.msisdn);
    }
  }
  // A copy: a caller's array changed after an estimate is not taken for the one it planned.
  return { inputs: [...inputs], country, numbers, invalid, duplicates };
}

/**
 * The recipients of a request as the journal will hold them. `typed`: the request's typed recipients
 * planned already (planTyped of the same inputs and country); anything else is planned here.
 */
export function planRecipients(
  store: AppStore,
  req: SendRequest,
  country: string | undefined,
  typed?: TypedRecipients,
): RecipientPlan & { typed: TypedRecipients } {
  const own =
    typed !== undefined && typed.country === country && sameList(typed.inputs, req.recipients)
      ? typed
      : planTyped(req.recipients, country);
  const numbers = [...own.numbers];
  // Made only when a contact or group adds a number (a send of typed numbers alone needs none).
  let seen: Set<string> | undefined;
  const invalid = [...own.invalid];
  let duplicates = own.duplicates;
  const add = (msisdn: string) => {
    seen ??= new Set(numbers);
    if (seen.has(msisdn)) duplicates++;
    else {
      seen.add(msisdn);
      numbers.push(msisdn);
    }
  };
  for (const id of req.contactIds ?? []) {
    const contact = store.contacts.get(id);
    if (contact) add(contact.number);
    else invalid.push({ input: `contact ${id}`, reason: 'no such contact' });
  }
  for (const id of req.groupIds ?? []) {
    if (!store.groups.get(id)) invalid.push({ input: `group ${id}`, reason: 'no such group' });
    else for (const m of store.groups.members(id)) add(m.number);
  }
  return { numbers, invalid, duplicates, typed: own };
}

/** Whether two lists hold the same strings in the same order. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A text of this many parts or more is said before it is sent (each part is a message's credit). */
export const LONG_MESSAGE_PARTS = 5;

/** Message parts one recipient costs: a text's SMS parts; a rich content counted as one (an estimate). */
export function partsPerRecipient(content: OutboxContent): number {
  if (content.kind === 'text' || content.kind === 'flash')
    return Math.max(1, analyzeText(content.text, { flash: content.kind === 'flash' }).segments);
  return 1;
}

/** The figures Compose's confirmation shows. */
export function estimateSend(
  plan: RecipientPlan,
  content: OutboxContent,
  credit: Credit | null,
  confirmAbove: number,
  /** Mail merge: each recipient's own text (the longest sets the parts). */
  textOf?: (msisdn: string) => string,
  /** Issue 16: recipients reached through server address books and Cc/Bcc (send-books.ts). */
  extra?: { reach: number; reached: Array<{ label: string; reach: number | null }> },
): SendEstimate {
  const recipients = plan.numbers.length + (extra?.reach ?? 0);
  // Mail merge: each recipient's own parts; the longest sets `segments`, their sum is the cost and
  // the credit covers recipients in order while the running sum fits.
  const own =
    textOf && (content.kind === 'text' || content.kind === 'flash')
      ? plan.numbers.map((n) => partsPerRecipient({ ...content, text: textOf(n) }))
      : null;
  const segments = own ? own.reduce((max, p) => Math.max(max, p), 1) : partsPerRecipient(content);
  const messages = own
    ? own.reduce((sum, p) => sum + p, 0) + (extra?.reach ?? 0) * segments
    : recipients * segments;
  // Issue 26: the credit counted at the price of the send's delivery option when one is known (a
  // Default send may cost less than AvailableMessages counts at), else AvailableMessages.
  const rate = rateOfSend(credit, content);
  const available =
    rate && rate.messages !== null
      ? rate.messages
      : credit !== null && credit.availableMessages !== null && /^\d+$/.test(credit.availableMessages)
        ? Number(credit.availableMessages)
        : null;
  let affordableRecipients: number | null = null;
  if (available !== null && own) {
    let spent = 0;
    affordableRecipients = 0;
    for (const p of own) {
      if (spent + p > available) break;
      spent += p;
      affordableRecipients++;
    }
  } else if (available !== null)
    affordableRecipients = Math.min(recipients, Math.floor(available / segments));
  const overCredit = available !== null && messages > available;
  return {
    recipients,
    invalid: plan.invalid.length,
    duplicates: plan.duplicates,
    optedOut: plan.optedOut ?? 0,
    segments,
    messages,
    availableMessages: available,
    credit: credit ? { amount: credit.credit, currency: credit.currency } : null,
    affordableRecipients,
    wouldFail: overCredit && affordableRecipients !== null ? recipients - affordableRecipients : 0,
    confirmAbove,
    longMessage: segments >= LONG_MESSAGE_PARTS,
    // Issue 16: a book or Cc/Bcc not sized reaches an unknown number: always asked first.
    needsConfirm:
      recipients > confirmAbove ||
      overCredit ||
      segments >= LONG_MESSAGE_PARTS ||
      (extra?.reached.some((r) => r.reach === null) ?? false),
    ...(extra && extra.reached.length > 0 ? { reached: extra.reached } : {}),
    rate,
    cost: rate ? costOf(rate, messages) : null,
    byOption: (credit?.rates ?? []).map((r) => ({ ...r, cost: costOf(r, messages) })),
  };
}

/** Issue 26: the price a send is counted at: its delivery option's (a rich content goes as Default). */
export function rateOfSend(credit: Credit | null, content: OutboxContent): DeliveryRate | null {
  const option =
    (content.kind === 'text' || content.kind === 'flash' ? content.deliveryOption : undefined) ?? 'Default';
  return credit?.rates?.find((r) => r.option === option) ?? null;
}

/** `messages` parts at `rate`'s price, four decimals. */
function costOf(rate: DeliveryRate, messages: number): string {
  return formatMoney((parseMoney(rate.price) ?? 0) * messages);
}
