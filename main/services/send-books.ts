// Issue 16: a send's server address books and Cc/Bcc. A book ("book" or "book::group") is one
// recipient token sent as SendToAddressBook, never expanded into numbers; Cc/Bcc numbers and books
// are sendmms fields (spec 2.4: a text or flash send takes none) and go with the first request only.
// Each is sized with QueryAddressBook so the estimate counts who it reaches and the journal
// (store/outbox-extras.ts) can give a book a request of its own.
import { parseBookRef, reachOfEntries } from '../client/address-books.ts';
import { prepareRecipients } from '../client/recipients.ts';
import { contentOperation, isRichKind } from '../../protocol/content.ts';
import { fieldSpec } from '../../protocol/fields.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { validateRequest } from '../../protocol/validate.ts';
import type { JobExtras } from '../store/outbox-extras.ts';
import { hasMergeFields } from './mail-merge.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { SendRequest } from '../../preload/api.ts';

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

/**
 * Books and Cc/Bcc of `req`, each sized with QueryAddressBook (a book that cannot be read: null).
 * `optedOut` lists which of some numbers are on the account's opt-out list: the app cannot leave
 * a member out of a book it sends whole, so a book with an opted-out member (or an opted-out Cc/Bcc
 * number) is refused with the reason, never sent. A mail merge names each recipient, which a book
 * does not: refused too.
 */
export async function planExtras(
  s: Session,
  req: SendRequest,
  country: string | undefined,
  optedOut: (numbers: string[]) => string[],
): Promise<PlannedExtras> {
  const refs = addressBooksOf(req);
  const first = copyFields(req, country);
  if (refs.length === 0 && Object.keys(first).length === 0) return { extras: {}, reached: [] };
  if (!isRichKind(req.content.kind) && hasMergeFields(req.content.text))
    throwIf([{ field: 'SendToAddressBook', message: MERGE_REFUSAL }], null);
  const stopped = optedOut([first.SendCc, first.SendBcc].flatMap((v) => (v ? v.split(',') : [])));
  throwIf(
    stopped.map((n) => ({ field: 'Cc/Bcc', message: `+${n} is on the opt-out list: never sent to` })),
    null,
  );
  const sizes = new Map<string, number | null>();
  const size = async (ref: string): Promise<number | null> => {
    if (!sizes.has(ref)) {
      const { book, group } = parseBookRef(ref);
      const r = await s.client.queryAddressBook(book, group);
      if (r.outcome === 'rejected')
        throw new ApiError('invalid-recipients', `address book ${ref}: ${r.reason}`, [
          { field: 'SendToAddressBook', message: `${ref}: ${r.reason}` },
        ]);
      if (r.outcome === 'ok') {
        const out = optedOut([...new Set(r.value.map((e) => e.MobileNumber))]);
        throwIf(
          out.length > 0
            ? [
                {
                  field: ref,
                  message: `${out.length} of its members ${out.length === 1 ? 'is' : 'are'} on the opt-out list (${out
                    .slice(0, 3)
                    .map((n) => `+${n}`)
                    .join(
                      ', ',
                    )}${out.length > 3 ? ', …' : ''}); the book is sent whole, so it is not sent: take ${
                    out.length === 1 ? 'that number' : 'them'
                  } out of the server book, or send to numbers`,
                },
              ]
            : [],
          null,
        );
      }
      sizes.set(ref, r.outcome === 'ok' ? reachOfEntries(r.value) : null);
    }
    return sizes.get(ref) ?? null;
  };
  const books: Array<{ ref: string; reach: number | null }> = [];
  for (const ref of refs) books.push({ ref, reach: await size(ref) });
  const reached = books.map((b) => ({ label: b.ref, reach: b.reach }));
  let firstReach: number | null = 0;
  for (const name of COPY_FIELDS) {
    const v = first[name];
    if (v === undefined) continue;
    const reach = name.endsWith('AddressBook') ? await size(v) : v.split(',').length;
    reached.push({ label: `${name.replace(/^Send/, '')} ${v}`, reach });
    firstReach = firstReach === null || reach === null ? null : firstReach + reach;
  }
  const tooMany = [
    ...books.map((b) => ({ label: b.ref, reach: b.reach })),
    { label: 'Cc/Bcc', reach: firstReach },
  ].filter((r) => r.reach !== null && r.reach > LIMITS.maxRecipientsPerRequest);
  throwIf(
    tooMany.map((r) => ({
      field: r.label,
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
