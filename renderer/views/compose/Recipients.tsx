// Compose's "To" field: numbers, contacts and groups as chips. A number is checked with protocol/'s
// normalizeMsisdn as it is added, so an invalid one shows its reason before anything is sent; a
// long pasted list is split and checked in a Web Worker (normalize-numbers.ts) while "Checking N
// numbers…" is shown, and its chips are added in the pasted order when it answers.
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { Contact, Group } from '../../../domain/index.ts';
import { normalizeMsisdn } from '../../../protocol/msisdn.ts';
import { checkLater, checkNow, countEntries, type Checked } from './normalize-numbers.ts';
import { findBook, type BookRef } from './server-books.ts';
import { InvalidPanel } from './InvalidPanel.tsx';
import { chipMatches } from './find-chips.ts';
import type { Chip } from './chip.ts';

export type { Chip } from './chip.ts';

let chipSeq = 0;

export function makeNumberChip(input: string, country: string | undefined): Chip {
  const r = normalizeMsisdn(input, country);
  return r.ok
    ? { kind: 'number', key: chipKey(), input, msisdn: r.msisdn }
    : { kind: 'invalid', key: chipKey(), input, reason: r.reason };
}
export const chipKey = () => `c${++chipSeq}`;

/** Chips shown before "+N more" (issue 12), and at most this many in the expanded list. */
const COLLAPSE_AFTER = 12;
const EXPANDED_MAX = 1000;
/** Entries of a long paste read into chips per task (about 10 ms each). */
const READ_SLICE = 10_000;

/** What reading checked entries into chips has made so far (addChecked, addCheckedInSlices). */
interface Reading {
  checked: Checked;
  groupByName: Map<string, Group>;
  contactByName: Map<string, Contact>;
  next: Chip[];
  seen: Set<string>;
  duplicates: number;
  unmatched: string[];
}

function chipLabel(c: Chip): string {
  return c.kind === 'number'
    ? `+${c.msisdn}`
    : c.kind === 'invalid'
      ? c.input
      : c.kind === 'contact'
        ? `${c.contact.name} ${c.contact.number}`
        : c.kind === 'book'
          ? c.ref
          : c.group.name;
}

export function invalidChips(chips: Chip[]): Extract<Chip, { kind: 'invalid' }>[] {
  return chips.filter((c): c is Extract<Chip, { kind: 'invalid' }> => c.kind === 'invalid');
}

/**
 * Long pastes of the form (Compose owns it): how many numbers are still being checked, and the
 * form's epoch; `reset` (the form emptied: Clear all, Discard draft, a new draft) starts a new epoch,
 * so a paste begun before it never lands, and counts its numbers out.
 */
export interface PasteState {
  checking: number;
  setChecking: (update: (n: number) => number) => void;
  /** The form's epoch now (a ref: a reset counts at once, not at the next render). */
  epoch: () => number;
  reset: () => void;
}

export function usePasteState(): PasteState {
  const [checking, setChecking] = useState(0);
  const epoch = useRef(0);
  const reset = useCallback(() => {
    epoch.current++;
    setChecking(0);
  }, []);
  const now = useCallback(() => epoch.current, []);
  return { checking, setChecking, epoch: now, reset };
}

export function Recipients({
  chips,
  setChips,
  entry,
  setEntry,
  contacts,
  groups,
  country,
  books = [],
  pastes,
  onSendValid,
}: {
  chips: Chip[];
  setChips: (update: (chips: Chip[]) => Chip[]) => void;
  /** What is typed but not yet a chip (Compose refuses to send while it is there). */
  entry: string;
  setEntry: (entry: string) => void;
  contacts: Contact[];
  groups: Group[];
  country: string | undefined;
  /** The account's server address books (issue 16). */
  books?: readonly BookRef[];
  /** Long pastes still being checked: Compose refuses to send meanwhile (PasteState). */
  pastes: PasteState;
  /** Issue 26: sends to these (valid) chips at once ("Send to the N valid"). */
  onSendValid?: (valid: Chip[]) => void;
}) {
  const { checking, setChecking } = pastes;
  /** False once unmounted: no paste lands then. */
  const mounted = useRef(true);
  // The default country as it is now: a long paste read before the settings arrived (a slow start)
  // is read again with it, or its national numbers would stay invalid ("no country code").
  const countryNow = useRef(country);
  useEffect(() => {
    countryNow.current = country;
  }, [country]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // issue 12: large lists collapse past a screenful; duplicates are counted, not added; a name that
  // matches nothing stays in the field instead of becoming an invalid chip; a number chip is edited in place.
  const [expanded, setExpanded] = useState(false);
  const [find, setFind] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);

  /**
   * Adds the entries of `raw`: checked at once when short, else in the worker (issue 15: a long
   * paste never blocks the page). Returns what stays in the field (a name matching nothing).
   */
  function addTokens(raw: string): string {
    // A server book's name as a whole (it may hold spaces) is one token, unless a local group or
    // contact has that name: the address book on this desk comes first, as token by token below.
    // A pasted list (lines, or longer than any name) is never one name: not lower-cased whole.
    const list = raw.length > 1_000 || raw.includes('\n');
    const name = list ? '' : raw.trim().toLowerCase().replace(/^@/, '');
    const local =
      groups.some((g) => g.name.toLowerCase() === name) ||
      contacts.some((c) => c.name.toLowerCase() === name);
    const whole = list || local ? undefined : findBook(books, raw);
    if (whole) {
      if (!chips.some((c) => c.kind === 'book' && c.ref === whole.ref))
        setChips((c) => [...c, { kind: 'book', key: chipKey(), ref: whole.ref, reach: whole.reach }]);
      setNote(null);
      return '';
    }
    const now = checkNow(raw, country);
    if (now) return addChecked(now);
    const count = countEntries(raw);
    // A paste begun before the form was emptied (Clear all, Discard draft, a new draft) never lands.
    const mine = pastes.epoch();
    const current = (): boolean => mounted.current && pastes.epoch() === mine;
    setChecking((n) => n + count);
    void checkWithCountryNow(raw, country)
      .then((checked) => addCheckedInSlices(checked, current))
      .finally(() => {
        // An emptied form counted its pastes out already (PasteState.reset).
        if (pastes.epoch() === mine) setChecking((n) => n - count);
      });
    return '';
  }

  /** checkLater, again with the default country when it changed while the list was read. */
  async function checkWithCountryNow(raw: string, used: string | undefined): Promise<Checked> {
    const checked = await checkLater(raw, used);
    return countryNow.current === used ? checked : checkWithCountryNow(raw, countryNow.current);
  }

  function startReading(checked: Checked): Reading {
    // First match wins, as a search of the lists would.
    const groupByName = new Map<string, Group>();
    for (const g of groups)
      if (!groupByName.has(g.name.toLowerCase())) groupByName.set(g.name.toLowerCase(), g);
    const contactByName = new Map<string, Contact>();
    for (const c of contacts)
      if (!contactByName.has(c.name.toLowerCase())) contactByName.set(c.name.toLowerCase(), c);
    const seen = new Set(chips.flatMap((c) => (c.kind === 'number' ? [c.msisdn] : [])));
    return { checked, groupByName, contactByName, next: [], seen, duplicates: 0, unmatched: [] };
  }

  /** Entries `from` to `to` as chips: a group's or contact's name, else the number. */
  function readEntries(r: Reading, from: number, to: number): void {
    const { tokens, msisdns, reasons } = r.checked;
    for (let i = from; i < to; i++) {
      const t = tokens[i]!;
      const lower = t.toLowerCase().replace(/^@/, '');
      const group = r.groupByName.get(lower);
      const contact = group ? undefined : r.contactByName.get(lower);
      const book = group || contact ? undefined : findBook(books, t);
      if (book) r.next.push({ kind: 'book', key: chipKey(), ref: book.ref, reach: book.reach });
      else if (group) r.next.push({ kind: 'group', key: chipKey(), group });
      else if (contact) r.next.push({ kind: 'contact', key: chipKey(), contact });
      else if (!/\d/.test(t)) r.unmatched.push(t);
      else if (msisdns[i]) {
        const msisdn = msisdns[i]!;
        if (r.seen.has(msisdn)) r.duplicates++;
        else {
          r.seen.add(msisdn);
          r.next.push({ kind: 'number', key: chipKey(), input: t, msisdn });
        }
      } else r.next.push({ kind: 'invalid', key: chipKey(), input: t, reason: reasons[i]! });
    }
  }

  /** The chips read, added in order, and a note of what was left out; returns the names matching nothing. */
  function finishReading({ next, duplicates, unmatched }: Reading): string {
    // A number another paste added meanwhile is not added twice (`seen` knew the chips of its start).
    if (next.length)
      setChips((c) => {
        const have = new Set(c.flatMap((x) => (x.kind === 'number' ? [x.msisdn] : [])));
        return [...c, ...next.filter((x) => x.kind !== 'number' || !have.has(x.msisdn))];
      });
    const bad = next.filter((c) => c.kind === 'invalid').length;
    // Issue 26: a paste with invalid entries is summarised as valid / invalid / duplicates.
    const parts = [
      bad && next.length > 1
        ? `${(next.length - bad).toLocaleString()} valid`
        : next.length > 1
          ? `${next.length.toLocaleString()} added`
          : '',
      duplicates ? `${duplicates.toLocaleString()} duplicate${duplicates === 1 ? '' : 's'} removed` : '',
      bad ? `${bad.toLocaleString()} invalid` : '',
      unmatched.length ? `no contact or group named ${unmatched.map((u) => `“${u}”`).join(', ')}` : '',
    ].filter(Boolean);
    setNote(parts.length ? parts.join(', ') + '.' : null);
    return unmatched.join(', ');
  }

  /** Chips for checked entries, in order; a note of what was left out. */
  function addChecked(checked: Checked): string {
    const r = startReading(checked);
    readEntries(r, 0, checked.tokens.length);
    return finishReading(r);
  }

  /**
   * The same for a long paste, READ_SLICE entries per task with a pause between (issue 15: 100,000
   * entries read into chips at once were one task of 120-200 ms).
   */
  async function addCheckedInSlices(checked: Checked, current: () => boolean): Promise<void> {
    const r = startReading(checked);
    for (let from = 0; from < checked.tokens.length; from += READ_SLICE) {
      if (from > 0) await new Promise((resolve) => setTimeout(resolve, 0));
      if (!current()) return;
      readEntries(r, from, Math.min(checked.tokens.length, from + READ_SLICE));
    }
    if (current()) finishReading(r);
  }

  /** A number chip edited in place: read again, or removed when emptied. */
  function finishEdit(key: string, value: string) {
    setEditing(null);
    const v = value.trim();
    setChips((all) =>
      v === ''
        ? all.filter((c) => c.key !== key)
        : all.map((c) => (c.key === key ? makeNumberChip(v, country) : c)),
    );
  }

  const collapsed = chips.length > COLLAPSE_AFTER && !expanded;
  const needle = find.trim().toLowerCase();
  const matching = needle ? chips.filter((c) => chipMatches(c, chipLabel(c), needle)) : chips;
  const visible = collapsed ? chips.slice(0, COLLAPSE_AFTER) : matching.slice(0, EXPANDED_MAX);

  const onEntryKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) || e.key === ',' || e.key === ';') {
      if (entry.trim()) {
        e.preventDefault();
        setEntry(addTokens(entry));
      } else if (e.key === 'Enter') e.preventDefault();
    } else if (e.key === 'Backspace' && entry === '' && chips.length) {
      setChips((c) => c.slice(0, -1));
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const pasted = e.clipboardData.getData('text');
    if (/[\s,;]/.test(pasted.trim())) {
      e.preventDefault();
      addTokens(pasted);
    }
  };

  return (
    <div className="field">
      <label htmlFor="recipient-entry">To</label>
      {chips.length > 1 ? (
        <div className="row chips-tools">
          <span className="muted small" data-testid="recipient-count">
            {chips.length.toLocaleString()} recipients
          </span>
          {expanded ? (
            <input
              type="search"
              aria-label="Find a recipient"
              placeholder="Find a recipient"
              value={find}
              onChange={(e) => setFind(e.target.value)}
            />
          ) : null}
          <button
            type="button"
            className="link"
            onClick={() => {
              setChips(() => []);
              pastes.reset();
              setExpanded(false);
              setFind('');
              setNote(null);
            }}
          >
            Clear all
          </button>
        </div>
      ) : null}
      <div className={expanded ? 'chips expanded' : 'chips'}>
        {/* Issue 26: the list holds only its items (axe aria-required-children); the entry and buttons follow it. */}
        <span role="list" aria-label="Recipients" className="chip-list">
          {visible.map((c) =>
            editing === c.key ? (
              <span key={c.key} role="listitem" className="chip-edit-item">
                <input
                  className="chip-edit"
                  aria-label="Edit recipient"
                  defaultValue={c.kind === 'number' || c.kind === 'invalid' ? c.input : ''}
                  autoFocus
                  onBlur={(e) => finishEdit(c.key, e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      finishEdit(c.key, e.currentTarget.value);
                    } else if (e.key === 'Escape') setEditing(null);
                  }}
                />
              </span>
            ) : (
              <span
                key={c.key}
                role="listitem"
                className={`chip ${c.kind}`}
                title={
                  c.kind === 'invalid'
                    ? c.reason
                    : c.kind === 'number'
                      ? `+${c.msisdn}`
                      : c.kind === 'book'
                        ? 'Server address book: sent as one address book, never as its numbers'
                        : undefined
                }
                onDoubleClick={() =>
                  c.kind === 'number' || c.kind === 'invalid' ? setEditing(c.key) : undefined
                }
              >
                {c.kind === 'number' ? `+${c.msisdn}` : null}
                {c.kind === 'invalid' ? (
                  <>
                    {c.input} <span className="chip-reason">— {c.reason}</span>
                  </>
                ) : null}
                {c.kind === 'contact' ? c.contact.name : null}
                {c.kind === 'group' ? `${c.group.name} (${c.group.memberCount})` : null}
                {c.kind === 'book' ? (
                  <>
                    <span className="chip-badge">Server book</span> {c.ref}{' '}
                    <span className="chip-reach">
                      {c.reach === null ? '(size not known)' : `reaches ${c.reach.toLocaleString()}`}
                    </span>
                  </>
                ) : null}
                <button
                  type="button"
                  className="chip-x"
                  aria-label={`Remove ${c.kind === 'contact' ? c.contact.name : c.kind === 'group' ? c.group.name : c.kind === 'book' ? c.ref : c.input}`}
                  onClick={() => setChips((all) => all.filter((x) => x.key !== c.key))}
                >
                  ×
                </button>
              </span>
            ),
          )}
        </span>
        {collapsed ? (
          <button type="button" className="chip more" onClick={() => setExpanded(true)}>
            +{(chips.length - COLLAPSE_AFTER).toLocaleString()} more
          </button>
        ) : null}
        {expanded && matching.length > EXPANDED_MAX ? (
          <span className="muted small">
            {(matching.length - EXPANDED_MAX).toLocaleString()} more match: narrow the search
          </span>
        ) : null}
        {expanded ? (
          <button type="button" className="link" onClick={() => setExpanded(false)}>
            Show less
          </button>
        ) : null}
        <input
          id="recipient-entry"
          list="recipient-suggestions"
          value={entry}
          placeholder={
            chips.length ? '' : 'Numbers, contacts, groups or server books — Enter to add, paste a list'
          }
          onChange={(e) => setEntry(e.target.value)}
          onKeyDown={onEntryKey}
          onPaste={onPaste}
          onBlur={() => {
            if (entry.trim()) setEntry(addTokens(entry));
          }}
        />
        <datalist id="recipient-suggestions">
          {groups.map((g) => (
            <option key={`g${g.id}`} value={g.name}>{`Group, ${g.memberCount} members`}</option>
          ))}
          {contacts.map((c) => (
            <option key={`c${c.id}`} value={c.name}>{`+${c.number}`}</option>
          ))}
          {books.map((b) => (
            <option key={`b${b.ref}`} value={b.ref}>{`Server book, reaches ${b.reach}`}</option>
          ))}
        </datalist>
      </div>
      {checking ? (
        <p className="muted" role="status">
          Checking {checking.toLocaleString()} numbers…
        </p>
      ) : null}
      {note ? (
        <p className="muted small" role="status" data-testid="recipient-note">
          {note}
        </p>
      ) : null}
      <InvalidPanel chips={chips} setChips={setChips} {...(onSendValid ? { onSendValid } : {})} />
    </div>
  );
}
