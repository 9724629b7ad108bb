// The Inbox's search results: their own panel in the list column (never over the thread), searched
// as the user types (debounced by the Inbox), the match highlighted, and keyboard navigable: the
// arrow keys move between results (from the search box too), Enter opens one, Escape goes back to
// the box. A contact opens that contact's conversation. Issue 27: a send (one hit however many it
// went to, found even where no recipient has a conversation) opens in History, as a campaign when
// it is one.
import type { KeyboardEvent, RefObject } from 'react';
import type { Contact, MessageHit, SearchResults, SendHit } from '../../domain/index.ts';
import { displayNumber, formatTime, plural, snippetParts } from '../format.ts';

/** Highlight the query's words (case and accents ignored) in a short text such as a name. */
export function highlight(text: string, query: string): Array<{ text: string; hit: boolean }> {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const words = query
    .split(/\s+/u)
    .map(fold)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  // Fold character by character so that positions in the folded text map back to the original.
  const chars = [...text];
  const folded = chars.map(fold);
  const flat = folded.join('');
  const hit = new Array<boolean>(chars.length).fill(false);
  const starts: number[] = [];
  let pos = 0;
  for (const f of folded) {
    starts.push(pos);
    pos += f.length;
  }
  for (const w of words) {
    for (let at = flat.indexOf(w); at >= 0; at = flat.indexOf(w, at + 1)) {
      chars.forEach((_, i) => {
        const s = starts[i] ?? 0;
        if (s < at + w.length && s + (folded[i]?.length ?? 0) > at) hit[i] = true;
      });
    }
  }
  const out: Array<{ text: string; hit: boolean }> = [];
  chars.forEach((c, i) => {
    const last = out[out.length - 1];
    if (last && last.hit === hit[i]) last.text += c;
    else out.push({ text: c, hit: hit[i] ?? false });
  });
  return out;
}

function Marked({ parts }: { parts: Array<{ text: string; hit: boolean }> }) {
  return <>{parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}

/** Move focus among the panel's results with the arrow keys (also called from the search box). */
export function moveInResults(panel: HTMLElement | null, from: Element | null, step: 1 | -1): void {
  if (!panel) return;
  const items = [...panel.querySelectorAll<HTMLButtonElement>('button.hit')];
  if (items.length === 0) return;
  const at = items.indexOf(from as HTMLButtonElement);
  const next = at < 0 ? (step === 1 ? 0 : items.length - 1) : at + step;
  if (next >= 0 && next < items.length) items[next]?.focus();
}

export function SearchPanel({
  results,
  panelRef,
  onOpenContact,
  onOpenHit,
  onOpenSend,
  onExport,
  onLeave,
}: {
  results: SearchResults;
  panelRef: RefObject<HTMLDivElement | null>;
  onOpenContact: (c: Contact) => void;
  onOpenHit: (h: MessageHit) => void;
  onOpenSend: (s: SendHit) => void;
  onExport: () => void;
  /** Escape, or an arrow up past the first result: back to the search box. */
  onLeave: () => void;
}) {
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const items = [...(panelRef.current?.querySelectorAll('button.hit') ?? [])];
      if (e.key === 'ArrowUp' && items.indexOf(document.activeElement as Element) === 0) onLeave();
      else moveInResults(panelRef.current, document.activeElement, e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onLeave();
    }
  };
  const none = results.messages.length === 0 && results.contacts.length === 0 && results.sends.length === 0;
  return (
    <div
      ref={panelRef}
      className="search-results"
      role="region"
      aria-label="Search results"
      data-testid="search-results"
      onKeyDown={onKeyDown}
    >
      <div className="row spread search-head">
        <p className="muted small" role="status">
          {plural(results.messages.length, 'message')}, {plural(results.contacts.length, 'contact')},{' '}
          {plural(results.sends.length, 'send')} for “{results.query}”
        </p>
        {results.messages.length > 0 ? (
          <button type="button" className="link" onClick={onExport}>
            Export CSV
          </button>
        ) : null}
      </div>
      {none ? <p className="muted">No message, contact or send matches.</p> : null}
      {results.contacts.length > 0 ? (
        <ul className="plain" aria-label="Contacts">
          {results.contacts.map((c) => (
            <li key={`c${c.id}`}>
              <button type="button" className="hit contact-hit" onClick={() => onOpenContact(c)}>
                <strong>
                  <Marked parts={highlight(c.name, results.query)} />
                </strong>{' '}
                <span className="muted">{displayNumber(c.number)}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {results.sends.length > 0 ? (
        <section aria-labelledby="search-sends-title" data-testid="search-sends">
          <h2 id="search-sends-title" className="search-section">
            Sends
          </h2>
          <ul className="plain">
            {results.sends.map((s) => (
              <li key={`s${s.jobId}`}>
                <button type="button" className="hit send-hit" onClick={() => onOpenSend(s)}>
                  <strong>Sent to {plural(s.recipientCount, 'recipient')}</strong>{' '}
                  <span className="muted small">· {formatTime(s.createdAt)}</span>
                  {s.label !== null ? <span className="hit-label">{s.label}</span> : null}
                  <span className="send-text">
                    <Marked parts={snippetParts(s.snippet)} />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {results.messages.length > 0 ? (
        <section aria-labelledby="search-messages-title">
          {/* Named for the sends beside them; alone, the status line says what they are. */}
          <h2
            id="search-messages-title"
            className={results.sends.length > 0 ? 'search-section' : 'visually-hidden'}
          >
            Messages
          </h2>
          <ul className="plain">
            {results.messages.map((h) => (
              <li key={`m${h.message.id}`}>
                <button type="button" className="hit" onClick={() => onOpenHit(h)}>
                  <strong>{h.contactName ?? displayNumber(h.message.peer)}</strong>{' '}
                  {h.message.label !== null ? <span className="hit-label">{h.message.label}</span> : null}{' '}
                  <span>
                    <Marked parts={snippetParts(h.snippet)} />
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
