// Issue 16: a send's server address books and Cc/Bcc. A book ("book" or "book::group") is one
// recipient token sent as SendToAddressBook, never expanded into numbers; Cc/Bcc numbers and books
// are sendmms fields (spec 2.4: a text or flash send takes none) and go with the first request only.
// Each is sized with QueryAddressBook so the estimate counts who it reaches and the journal
// (store/outbox-extras.ts) can give a book a request of its own.
import { parseBookRef } from '../client/address-books.ts';
import { prepareRecipients } from '../client/recipients.ts';
import { contentOperation } from '../../protocol/content.ts';
import { fieldSpec } from '../../protocol/fields.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { validateRequest } from '../../protocol/validate.ts';
import type { JobExtras } from '../store/outbox-extras.ts';
import { isMailMerge } from './mail-merge.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { SendRequest } from '../../domain/index.ts';

export interface PlannedExtras {
  extras: JobExtras;
  /** Each book and the Cc/Bcc with the recipients it reaches (null: not sized). */
  reached: Array<{ label: string; reach: number | null }>;
}

const MERGE_REFUSAL =
  'a mail merge ({name}, {number}…) fills in each recipient, and the app does not list a server book’s members: send the merge to numbers, contacts or groups';

const COPY_FIELDS = ['SendCc', 'SendBcc', 'SendCcAddressBook', 'SendBccAddressBook'] as const;

/** The form fields of a request's Cc/Bcc (numbers normalised), refused when the content takes none. */
export function copyFields(req: SendRequest, country: string | undefined): Record<string, string> {
  const c = req.copies ?? {};
  const fields: Record<string, string> = {};
  const problems: Array<{ field: string; message: string }> = [];
  for (const [field, list] of [
    ['SendCc', c.cc],
    ['SendBcc', c.bcc],
  ] as const) {
    if (!list || list.length === 0) continue;
    const p = prepareRecipients(list, country, field);
    problems.push(...p.problems);
    if (p.numbers.length > 0) fields[field] = p.numbers.join(',');
  }
  if (c.ccAddressBook?.trim()) fields.SendCcAddressBook = c.ccAddressBook.trim();
  if (c.bccAddressBook?.trim()) fields.SendBccAddressBook = c.bccAddressBook.trim();
  const op = contentOperation(req.content.kind);
  const allowed = Object.keys(fields).every((name) => fieldSpec(op, name));
  for (const name of Object.keys(fields))
    if (!fieldSpec(op, name))
      problems.push({
        field: name,
        message: `a ${req.content.kind} message takes no ${name}: Cc and Bcc are fields of a rich (sendmms) send`,
      });
  if (allowed)
    problems.push(...validateRequest(op, fields, 'content').filter((p) => p.field.endsWith('AddressBook')));
  return throwIf(problems, fields);
}

/** The request's address books, trimmed, each once, each a valid reference. */
export function addressBooksOf(req: SendRequest): string[] {
  const refs = [...new Set((req.addressBooks ?? []).map((b) => b.trim()).filter((b) => b !== ''))];
  const op = contentOperation(req.content.kind);
  const problems = refs.flatMap((ref) =>
    validateRequest(op, { SendToAddressBook: ref }, 'content').filter((p) => p.field === 'SendToAddressBook'),
  );
  return throwIf(problems, refs);
}

function throwIf<T>(problems: Array<{ field: string; message: string }>, value: T): T {
  if (problems.length === 0) return value;
  throw new ApiError(
    'invalid-recipients',
    `the message cannot be sent: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
    problems,
  );
}

/** A book's members as normalised numbers (QueryAddressBook), or why it could not be read. */
export async function bookMembers(
  s: Session,
  ref: string,
  country: string | undefined,
): Promise<{ ok: true; members: string[] } | { ok: false; reason: string }> {
  const { book, group } = parseBookRef(ref);
  const r = await s.client.queryAddressBook(book, group);
  if (r.outcome !== 'ok') return { ok: false, reason: r.reason };
  // The provider may answer +44… or 07…: the opt-out list and the typed numbers are normalised.
  const members = r.value.map((e) => {
    const n = normalizeMsisdn(e.MobileNumber, country);
    return n.ok ? n.msisdn : e.MobileNumber.trim();
  });
  return { ok: true, members: [...new Set(members)] };
}

const numbersOf = (fields: Record<string, string>): string[] =>
  [fields.SendCc, fields.SendBcc].flatMap((v) => (v ? v.split(',') : []));

function listed(numbers: readonly string[]): string {
  return `${numbers
    .slice(0, 3)
    .map((n) => `+${n}`)
    .join(', ')}${numbers.length > 3 ? ', …' : ''}`;
}

function optedOutMembers(ref: string, out: readonly string[]): string {
  return `${out.length} of its members ${out.length === 1 ? 'is' : 'are'} on the opt-out list (${listed(
    out,
  )}); the book is sent whole, so it is not sent: take ${
    out.length === 1 ? 'that number' : 'them'
  } out of the server book, or send to numbers`;
}

/**
 * Books and Cc/Bcc of `req`, each read with QueryAddressBook. `optedOut` lists which of some
 * numbers are on the account's opt-out list: the app cannot leave a member out of a book it sends
 * whole, so a book with an opted-out member (or an opted-out Cc/Bcc number) is refused with the
 * reason, never sent; so is a book that cannot be read (its members are unchecked). Every
 * recipient gets the send once: a typed number (`numbers`) a book also reaches, two books, or a
 * Cc/Bcc number and another recipient that reach the same number are refused with the numbers
 * named (never resolved silently: a number left to a book would be lost if the book were refused
 * at send time). A mail merge names each recipient, which a book does not: refused too.
 */
export async function planExtras(
  s: Session,
  req: SendRequest,
  country: string | undefined,
  optedOut: (numbers: string[]) => string[],
  numbers: readonly string[] = [],
): Promise<PlannedExtras> {
  const refs = addressBooksOf(req);
  const first = copyFields(req, country);
  if (refs.length === 0 && Object.keys(first).length === 0) return { extras: {}, reached: [] };
  if (isMailMerge(req.content)) throwIf([{ field: 'SendToAddressBook', message: MERGE_REFUSAL }], null);
  const stopped = optedOut(numbersOf(first));
  throwIf(
    stopped.map((n) => ({ field: 'Cc/Bcc', message: `+${n} is on the opt-out list: never sent to` })),
    null,
  );
  const membersOf = new Map<string, string[]>();
  const read = async (ref: string): Promise<string[]> => {
    const known = membersOf.get(ref);
    if (known) return known;
    const r = await bookMembers(s, ref, country);
    if (!r.ok)
      throwIf(
        [
          {
            field: ref,
            message: `address book ${ref} could not be read (${r.reason}): a book's members are checked against the opt-out list before it is sent, so it is not sent; try again`,
          },
        ],
        null,
      );
    const members = r.ok ? r.members : [];
    const out = optedOut(members);
    throwIf(out.length > 0 ? [{ field: ref, message: optedOutMembers(ref, out) }] : [], null);
    membersOf.set(ref, members);
    return members;
  };
  // Who reaches each number (book ref for a To book, "first" for the Cc/Bcc), to send it once.
  const owner = new Map<string, { label: string; key: string; book: boolean }>();
  const clashes = new Map<string, string[]>();
  const claim = (list: readonly string[], label: string, key: string, book: boolean): void => {
    for (const n of list) {
      const o = owner.get(n);
      if (!o) owner.set(n, { label, key, book });
      else {
        const pair = `${o.label} and ${label}`;
        clashes.set(pair, [...(clashes.get(pair) ?? []), n]);
      }
    }
  };
  const books: Array<{ ref: string; reach: number }> = [];
  for (const ref of refs) {
    const members = await read(ref);
    claim(members, ref, ref, true);
    books.push({ ref, reach: members.length });
  }
  const reached: PlannedExtras['reached'] = books.map((b) => ({ label: b.ref, reach: b.reach }));
  let firstReach = 0;
  for (const name of COPY_FIELDS) {
    const v = first[name];
    if (v === undefined) continue;
    const label = `${name.replace(/^Send/, '')} ${v}`;
    const isBook = name.endsWith('AddressBook');
    const list = isBook ? await read(v) : v.split(',');
    claim(list, label, 'first', isBook);
    reached.push({ label, reach: list.length });
    firstReach += list.length;
  }
  for (const n of numbers) {
    const o = owner.get(n);
    if (o) clashes.set(`To and ${o.label}`, [...(clashes.get(`To and ${o.label}`) ?? []), n]);
  }
  throwIf(
    [...clashes].map(([pair, list]) => ({
      field: pair,
      message: `both reach ${list.length} number${list.length === 1 ? '' : 's'} (${listed(
        list,
      )}), which would get the message twice: take ${list.length === 1 ? 'it' : 'them'} out of one`,
    })),
    null,
  );
  const tooMany = [...books, { ref: 'Cc/Bcc', reach: firstReach }].filter(
    (r) => r.reach > LIMITS.maxRecipientsPerRequest,
  );
  throwIf(
    tooMany.map((r) => ({
      field: r.ref,
      message: `reaches ${r.reach} recipients; one request takes at most ${LIMITS.maxRecipientsPerRequest}`,
    })),
    null,
  );
  const hasFirst = Object.keys(first).length > 0;
  return {
    extras: { books, ...(hasFirst ? { first: { fields: first, reach: firstReach } } : {}) },
    reached,
  };
}

/**
 * At send time (issue 16): a batch's books and Cc/Bcc read and checked again, since a member may
 * have opted out (or the book changed) after the send was journaled. Returns why the batch must not
 * go (a member or Cc/Bcc number on the opt-out list, a book that cannot be read, a book that now
 * reaches a number the send goes to directly: `direct`, the job's own numbers), or null.
 */
export async function recheckExtras(
  s: Session,
  fields: Record<string, string>,
  country: string | undefined,
  optedOut: (numbers: string[]) => string[],
  direct: () => ReadonlySet<string>,
  /** The numbers the batch's own SendTo carries (they count toward the request's limit too). */
  numbersInBatch = 0,
): Promise<string | null> {
  const stopped = optedOut(numbersOf(fields));
  if (stopped.length > 0) return `not sent: Cc/Bcc ${listed(stopped)} opted out after the send was journaled`;
  let size = numbersInBatch + numbersOf(fields).length;
  // The job's own numbers, read once and only when a book has passed the opt-out check.
  let own: ReadonlySet<string> | undefined;
  for (const name of ['SendToAddressBook', ...COPY_FIELDS.filter((f) => f.endsWith('AddressBook'))]) {
    const ref = fields[name];
    if (ref === undefined) continue;
    const r = await bookMembers(s, ref, country);
    if (!r.ok)
      return `not sent: address book ${ref} could not be read to check it against the opt-out list (${r.reason})`;
    const out = optedOut(r.members);
    if (out.length > 0) return `not sent: ${ref}: ${optedOutMembers(ref, out)}`;
    const jobNumbers = (own ??= direct());
    const twice = r.members.filter((m) => jobNumbers.has(m));
    if (twice.length > 0)
      return `not sent: ${ref} now also reaches ${listed(twice)}, which this send went to directly: sent through the book as well, ${twice.length === 1 ? 'that number' : 'they'} would get it twice`;
    size += r.members.length;
  }
  // A book that grew since the send was journaled may no longer fit in one request.
  if (size > LIMITS.maxRecipientsPerRequest)
    return `not sent: the request would now reach ${size} recipients (its address books grew since the send was journaled); one request takes at most ${LIMITS.maxRecipientsPerRequest}`;
  return null;
}

/** Recipients the extras reach (unsized ones counted as 0). */
export function reachOfPlan(p: PlannedExtras): number {
  return p.reached.reduce((n, r) => n + (r.reach ?? 0), 0);
}

/**
 * "Send to the first K the credit covers": K counts the numbers first, then each book and the
 * Cc/Bcc whole while they fit; an unsized one is left out.
 */
export function limitExtras(p: PlannedExtras, room: number): JobExtras {
  let left = room;
  const books = (p.extras.books ?? []).filter((b) => {
    if (b.reach === null || b.reach > left) return false;
    left -= b.reach;
    return true;
  });
  const f = p.extras.first;
  const first = f && f.reach !== null && f.reach <= left ? f : undefined;
  return { books, ...(first ? { first } : {}) };
}
