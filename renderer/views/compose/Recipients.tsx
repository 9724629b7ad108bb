// Compose's "To" field: numbers, contacts and groups as chips. A number is checked with protocol/'s
// normalizeMsisdn as it is added, so an invalid one shows its reason before anything is sent; a
// long pasted list is split and checked in a Web Worker (normalize-numbers.ts) while "Checking N
// numbers…" is shown, and its chips are added in the pasted order when it answers.
import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { Contact, Group } from '../../../preload/api.ts';
import { normalizeMsisdn } from '../../../protocol/msisdn.ts';
import { checkLater, checkNow, countEntries, type Checked } from './normalize-numbers.ts';

export type Chip =
  | { kind: 'number'; key: string; input: string; msisdn: string }
  | { kind: 'invalid'; key: string; input: string; reason: string }
  | { kind: 'contact'; key: string; contact: Contact }
  | { kind: 'group'; key: string; group: Group };

let chipSeq = 0;

export function makeNumberChip(input: string, country: string | undefined): Chip {
  const r = normalizeMsisdn(input, country);
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
    const now = checkNow(raw, country);
    if (now) {
      addChecked(now);
      return;
    }
    const count = countEntries(raw);
    setChecking((n) => n + count);
    void checkLater(raw, country).then((checked) => {
      addChecked(checked);
      setChecking((n) => n - count);
    });
  }

  /** Chips for checked entries, in order: a group's or contact's name, else the number. */
  function addChecked({ tokens, msisdns, reasons }: Checked) {
    // First match wins, as a search of the lists would.
    const groupByName = new Map<string, Group>();
    for (const g of groups)
      if (!groupByName.has(g.name.toLowerCase())) groupByName.set(g.name.toLowerCase(), g);
    const contactByName = new Map<string, Contact>();
    for (const c of contacts)
      if (!contactByName.has(c.name.toLowerCase())) contactByName.set(c.name.toLowerCase(), c);
    const next: Chip[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const lower = t.toLowerCase().replace(/^@/, '');
      const group = groupByName.get(lower);
      const contact = group ? undefined : contactByName.get(lower);
      if (group) next.push({ kind: 'group', key: chipKey(), group });
      else if (contact) next.push({ kind: 'contact', key: chipKey(), contact });
      else if (msisdns[i]) next.push({ kind: 'number', key: chipKey(), input: t, msisdn: msisdns[i]! });
      else next.push({ kind: 'invalid', key: chipKey(), input: t, reason: reasons[i]! });
    }
    if (next.length) setChips((c) => [...c, ...next]);
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
