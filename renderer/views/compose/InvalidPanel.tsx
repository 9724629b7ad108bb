// The invalid entries of Compose's "To" field as their own list (issue 26): a 2,000-line paste with
// 48 invalid numbers is cleaned in one step. The list names each entry and its reason (and shrinks
// as they are removed or fixed), "Remove invalid" takes them all out at once (undoable), "Send to
// the N valid" does that and sends, and the rejects stay available to copy or export as CSV after
// they are removed.
import { useState } from 'react';
import Papa from 'papaparse';
import { download, plural } from '../../format.ts';
import type { Chip } from './chip.ts';

type InvalidChip = Extract<Chip, { kind: 'invalid' }>;

/** Rows listed at most; the rest are counted (the copy and the export hold them all). */
const LISTED = 200;

/** Removed chips with where they were, so that Undo puts them back in place. */
interface Removed {
  items: Array<{ chip: InvalidChip; index: number }>;
}

function rejectsCsv(rejects: InvalidChip[]): string {
  // papaparse quotes what needs quoting (a pasted entry may hold commas or quotes).
  return Papa.unparse({ fields: ['entry', 'reason'], data: rejects.map((c) => [c.input, c.reason]) });
}

function Tools({ rejects, onCopied }: { rejects: InvalidChip[]; onCopied: (n: number) => void }) {
  return (
    <>
      <button
        type="button"
        className="link"
        onClick={() =>
          void navigator.clipboard.writeText(rejects.map((c) => c.input).join('\n')).then(
            () => onCopied(rejects.length),
            () => undefined,
          )
        }
      >
        Copy list
      </button>{' '}
      <button
        type="button"
        className="link"
        onClick={() => download('invalid-recipients.csv', rejectsCsv(rejects))}
      >
        Export CSV
      </button>
    </>
  );
}

export function InvalidPanel({
  chips,
  setChips,
  onSendValid,
}: {
  chips: Chip[];
  setChips: (update: (chips: Chip[]) => Chip[]) => void;
  /** Sends to these chips (the valid ones) at once; absent when Compose cannot send now. */
  onSendValid?: (valid: Chip[]) => void;
}) {
  const [removed, setRemoved] = useState<Removed | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const invalid = chips.filter((c): c is InvalidChip => c.kind === 'invalid');
  const valid = chips.filter((c) => c.kind !== 'invalid');

  /** Takes every invalid chip out (kept for Undo, Copy and Export); returns the chips left. */
  const removeAll = (): Chip[] => {
    const items = chips.flatMap((chip, index) => (chip.kind === 'invalid' ? [{ chip, index }] : []));
    const left = chips.filter((c) => c.kind !== 'invalid');
    setRemoved({ items });
    setCopied(null);
    setChips((all) => all.filter((c) => c.kind !== 'invalid'));
    return left;
  };
  const undo = () => {
    if (!removed) return;
    setChips((all) => {
      const out = [...all];
      for (const { chip, index } of removed.items) out.splice(Math.min(index, out.length), 0, chip);
      return out;
    });
    setRemoved(null);
  };

  if (invalid.length === 0 && !removed) return null;
  if (invalid.length === 0 && removed) {
    const rejects = removed.items.map((i) => i.chip);
    return (
      <div className="invalid-panel removed" data-testid="invalid-removed">
        <p role="status">
          {plural(rejects.length, 'invalid entry', 'invalid entries')} removed: not sent.{' '}
          <button type="button" className="link" onClick={undo}>
            Undo
          </button>{' '}
          <Tools rejects={rejects} onCopied={(n) => setCopied(`${plural(n, 'entry', 'entries')} copied.`)} />{' '}
          <button type="button" className="link" onClick={() => setRemoved(null)}>
            Dismiss
          </button>
        </p>
        {copied ? <p className="muted small">{copied}</p> : null}
      </div>
    );
  }
  return (
    <div className="invalid-panel" data-testid="invalid-panel">
      <p className="error" role="alert">
        {invalid.length.toLocaleString()} invalid number{invalid.length > 1 ? 's' : ''}: fix or remove before
        sending.
      </p>
      <p className="muted small" data-testid="recipient-summary">
        {plural(valid.length, 'valid recipient')}, {invalid.length.toLocaleString()} invalid.
      </p>
      <ul className="invalid-list" aria-label="Invalid entries">
        {invalid.slice(0, LISTED).map((c) => (
          <li key={c.key}>
            <span className="invalid-entry">{c.input}</span> <span className="muted">{c.reason}</span>
            <button
              type="button"
              className="link"
              aria-label={`Remove ${c.input}`}
              onClick={() => setChips((all) => all.filter((x) => x.key !== c.key))}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {invalid.length > LISTED ? (
        <p className="muted small">
          and {(invalid.length - LISTED).toLocaleString()} more (all of them in the copy and the export)
        </p>
      ) : null}
      <div className="row wrap invalid-tools">
        <button type="button" onClick={() => void removeAll()}>
          Remove {invalid.length.toLocaleString()} invalid
        </button>
        {onSendValid && valid.length > 0 ? (
          <button type="button" className="primary" onClick={() => onSendValid(removeAll())}>
            Send to the {plural(valid.length, 'valid recipient')}
          </button>
        ) : null}
        <Tools rejects={invalid} onCopied={(n) => setCopied(`${plural(n, 'entry', 'entries')} copied.`)} />
      </div>
      {copied ? <p className="muted small">{copied}</p> : null}
    </div>
  );
}
