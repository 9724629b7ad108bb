// Compose's "To" field: numbers, contacts and groups as chips. A number is checked with protocol/'s
// normalizeMsisdn as it is added, so an invalid one shows its reason before anything is sent; a
// pasted list of more than INLINE_MAX numbers is checked in a Web Worker (normalize-numbers.ts) while
// "Checking N numbers…" is shown, and its chips are added in the pasted order when it answers.
import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { Contact, Group } from '../../../preload/api.ts';
import { normalizeMsisdn, parseRecipientText } from '../../../protocol/msisdn.ts';
import type { MsisdnResult } from '../../../protocol/msisdn.ts';
import { INLINE_MAX, normalizeMany } from './normalize-numbers.ts';

export type Chip =
  | { kind: 'number'; key: string; input: string; msisdn: string }
  | { kind: 'invalid'; key: string; input: string; reason: string }
  | { kind: 'contact'; key: string; contact: Contact }
  | { kind: 'group'; key: string; group: Group };

let chipSeq = 0;

export function makeNumberChip(input: string, country: string | undefined): Chip {
  return numberChip(input, normalizeMsisdn(input, country));
}

function numberChip(input: string, r: MsisdnResult): Chip {
  return r.ok
    ? { kind: 'number', key: chipKey(), input, msisdn: r.msisdn }
    : { kind: 'invalid', key: chipKey(), input, reason: r.reason };
}
export const chipKey = () => `c${++chipSeq}`;

export function invalidChips(chips: Chip[]): Extract<Chip, { kind: 'invalid' }>[] {
  return chips.filter((c): c is Extract<Chip, { kind: 'invalid' }> => c.kind === 'invalid');
}

export function Recipients({
  chips,
  setChips,
  entry,
  setEntry,
  contacts,
  groups,
  country,
}: {
  chips: Chip[];
  setChips: (update: (chips: Chip[]) => Chip[]) => void;
  /** What is typed but not yet a chip (Compose refuses to send while it is there). */
  entry: string;
  setEntry: (entry: string) => void;
  contacts: Contact[];
  groups: Group[];
  country: string | undefined;
}) {
  const invalid = invalidChips(chips);
  /** How many pasted numbers the worker is still checking. */
  const [checking, setChecking] = useState(0);

  function addTokens(raw: string) {
    const tokens =
      raw.includes('\n') || raw.includes(',') || raw.includes(';') ? parseRecipientText(raw) : [raw.trim()];
    // First match wins, as a search of the lists would.
    const groupByName = new Map<string, Group>();
    for (const g of groups)
      if (!groupByName.has(g.name.toLowerCase())) groupByName.set(g.name.toLowerCase(), g);
    const contactByName = new Map<string, Contact>();
    for (const c of contacts)
      if (!contactByName.has(c.name.toLowerCase())) contactByName.set(c.name.toLowerCase(), c);
    // Contacts and groups as chips now; numbers as their index in `numbers` until checked.
    const planned: Array<Chip | number> = [];
    const numbers: string[] = [];
    for (const t of tokens) {
      if (!t) continue;
      const lower = t.toLowerCase().replace(/^@/, '');
      const group = groupByName.get(lower);
      const contact = contactByName.get(lower);
      if (group) planned.push({ kind: 'group', key: chipKey(), group });
      else if (contact) planned.push({ kind: 'contact', key: chipKey(), contact });
      else planned.push(numbers.push(t) - 1);
    }
    const add = (results: MsisdnResult[]) => {
      const next = planned.map((p) => (typeof p === 'number' ? numberChip(numbers[p]!, results[p]!) : p));
      if (next.length) setChips((c) => [...c, ...next]);
    };
    if (numbers.length <= INLINE_MAX) {
      add(numbers.map((n) => normalizeMsisdn(n, country)));
      return;
    }
    setChecking((n) => n + numbers.length);
    void normalizeMany(numbers, country).then((results) => {
      add(results);
      setChecking((n) => n - numbers.length);
    });
  }

  const onEntryKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) || e.key === ',' || e.key === ';') {
      if (entry.trim()) {
        e.preventDefault();
        addTokens(entry);
        setEntry('');
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
      <div className="chips" role="list" aria-label="Recipients">
        {chips.map((c) => (
          <span
            key={c.key}
            role="listitem"
            className={`chip ${c.kind}`}
            title={c.kind === 'invalid' ? c.reason : c.kind === 'number' ? `+${c.msisdn}` : undefined}
          >
            {c.kind === 'number' ? `+${c.msisdn}` : null}
            {c.kind === 'invalid' ? (
              <>
                {c.input} <span className="chip-reason">— {c.reason}</span>
              </>
            ) : null}
            {c.kind === 'contact' ? c.contact.name : null}
            {c.kind === 'group' ? `${c.group.name} (${c.group.memberCount})` : null}
            <button
              type="button"
              className="chip-x"
              aria-label={`Remove ${c.kind === 'contact' ? c.contact.name : c.kind === 'group' ? c.group.name : c.input}`}
              onClick={() => setChips((all) => all.filter((x) => x.key !== c.key))}
            >
              ×
            </button>
          </span>
        ))}
        <input
          id="recipient-entry"
          list="recipient-suggestions"
          value={entry}
          placeholder={chips.length ? '' : 'Numbers, contacts or groups — Enter to add, paste a list'}
          onChange={(e) => setEntry(e.target.value)}
          onKeyDown={onEntryKey}
          onPaste={onPaste}
          onBlur={() => {
            if (entry.trim()) {
              addTokens(entry);
              setEntry('');
            }
          }}
        />
        <datalist id="recipient-suggestions">
          {groups.map((g) => (
            <option key={`g${g.id}`} value={g.name}>{`Group, ${g.memberCount} members`}</option>
          ))}
          {contacts.map((c) => (
            <option key={`c${c.id}`} value={c.name}>{`+${c.number}`}</option>
          ))}
        </datalist>
      </div>
      {checking ? (
        <p className="muted" role="status">
          Checking {checking.toLocaleString()} numbers…
        </p>
      ) : null}
      {invalid.length ? (
        <p className="error" role="alert">
          {invalid.length} invalid number{invalid.length > 1 ? 's' : ''}: fix or remove before sending.
        </p>
      ) : null}
    </div>
  );
}
