// The Inbox: conversations by most recent activity (unread is shown, it never moves a row), a
// filter (all, unread, archived), search as you type in its own panel, and the selected
// conversation's thread (./InboxThread.tsx). Where the window is narrow the list and the thread
// take turns (a Back button returns to the list).
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  Contact,
  ConversationCursor,
  ConversationFilter,
  ConversationSummary,
  MessageHit,
  SearchResults,
} from '../../domain/index.ts';
import { api, useEvent } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { displayNumber, download, formatTime } from '../format.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ExportDialog } from './InboxExport.tsx';
import { moveInResults, SearchPanel } from './InboxSearch.tsx';
import { Thread, type ConvRef } from './InboxThread.tsx';

const PAGE = 200;
/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 200;

const FILTERS: ReadonlyArray<{ filter: ConversationFilter; label: string }> = [
  { filter: 'all', label: 'All' },
  { filter: 'unread', label: 'Unread' },
  { filter: 'archived', label: 'Archived' },
];

export function Inbox({
  onUnreadChanged,
  searchFocus,
  enterSends,
  openConversation,
}: {
  onUnreadChanged: () => void;
  onCompose?: (d: ComposeDraft) => void;
  searchFocus: number;
  enterSends: boolean;
  /** A conversation to open (a notification's click); a new object opens it again. */
  openConversation?: { peer: string } | null;
}) {
  const [convs, setConvs] = useState<ConversationSummary[]>([]);
  const [cursor, setCursor] = useState<ConversationCursor | null>(null);
  const [filter, setFilter] = useState<ConversationFilter>('all');
  const [selected, setSelected] = useState<number | null>(null);
  // What the thread needs when the conversation is not in the loaded pages (a search hit).
  const [selectedRef, setSelectedRef] = useState<ConvRef | null>(null);
  const [query, setQuery] = useState('');
  const [searchAnswer, setResults] = useState<SearchResults | null>(null);
  // An emptied box shows the list again at once (an answer still on its way is dropped).
  const results = query.trim() ? searchAnswer : null;
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const loading = useRef(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDetailsElement>(null);

  const reload = useCallback(() => {
    api()
      .inbox.conversations({ limit: PAGE, filter })
      .then(
        (p) => {
          setConvs(p.items);
          setCursor(p.next);
        },
        (e: unknown) => setError(e),
      );
  }, [filter]);
  useEffect(reload, [reload]);
  useEffect(() => {
    if (searchFocus > 0) searchRef.current?.focus();
  }, [searchFocus]);

  const more = useCallback(() => {
    if (!cursor || loading.current) return;
    loading.current = true;
    api()
      .inbox.conversations({ cursor, limit: PAGE, filter })
      .then((p) => {
        setConvs((c) => [...c, ...p.items]);
        setCursor(p.next);
      })
      .catch((e: unknown) => setError(e))
      .finally(() => (loading.current = false));
  }, [cursor, filter]);

  // A large send reports progress per batch: refresh the list at most every 500 ms.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloadSoon = useCallback(() => {
    timer.current ??= setTimeout(() => {
      timer.current = null;
      reload();
    }, 500);
  }, [reload]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useEvent('inbox:received', reload);
  useEvent('outbox:progress', reloadSoon);

  // Search as you type: the newest query wins (an older answer arriving late is dropped).
  const searchSeq = useRef(0);
  useEffect(() => {
    const q = query.trim();
    const seq = ++searchSeq.current;
    if (!q) return undefined;
    const t = setTimeout(() => {
      api()
        .inbox.search({ query: q, limit: 50 })
        .then(
          (r) => {
            if (seq === searchSeq.current) setResults(r);
          },
          (err: unknown) => setError(err),
        );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query]);

  const open = (ref: ConvRef) => {
    setSelected(ref.id);
    setSelectedRef(ref);
  };
  useEffect(() => {
    if (!openConversation) return;
    void api()
      .inbox.open(openConversation.peer)
      .then((c) => {
        setSelected(c.id);
        setSelectedRef(c);
      }, setError);
  }, [openConversation]);
  const openContact = (c: Contact) =>
    void api()
      .inbox.open(c.number)
      .then((s) => {
        open({ ...s, contactName: s.contactName ?? c.name });
        reload();
      }, setError);
  const openHit = (h: MessageHit) =>
    open({
      id: h.message.conversationId,
      peer: h.message.peer,
      contactName: h.contactName,
      hasUnread: h.message.direction === 'in' && !h.message.read,
      archived: false,
    });

  const found = convs.find((c) => c.id === selected);
  const current: ConvRef | null = found
    ? found
    : selectedRef && selectedRef.id === selected
      ? selectedRef
      : null;

  const changed = () => {
    reload();
    onUnreadChanged();
  };
  const closeMenu = () => menuRef.current?.removeAttribute('open');

  return (
    <section className={`view inbox ${current ? 'has-thread' : ''}`} aria-labelledby="inbox-title">
      <div className="inbox-list">
        <div className="row spread inbox-head">
          <h1 id="inbox-title">Inbox</h1>
          <div className="row">
            <button
              type="button"
              onClick={() =>
                void api()
                  .inbox.pollNow()
                  .then(reload, (e: unknown) => setError(e))
              }
            >
              Check now
            </button>
            <details className="menu" ref={menuRef}>
              <summary aria-label="More inbox actions">⋯</summary>
              <div className="menu-items" role="menu">
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    closeMenu();
                    void api().inbox.markAllRead().then(changed, setError);
                  }}
                >
                  Mark all read
                </button>
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    closeMenu();
                    setExporting(true);
                  }}
                >
                  Export messages…
                </button>
              </div>
            </details>
          </div>
        </div>
        <input
          ref={searchRef}
          type="search"
          role="searchbox"
          aria-label="Search messages and contacts"
          aria-controls="inbox-search-results"
          placeholder="Search (Ctrl+F)"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && results) {
              e.preventDefault();
              moveInResults(panelRef.current, null, 1);
            } else if (e.key === 'Enter' && results) {
              e.preventDefault();
              panelRef.current?.querySelector<HTMLButtonElement>('button.hit')?.click();
            } else if (e.key === 'Escape' && query) {
              e.preventDefault();
              setQuery('');
            }
          }}
        />
        <div className="segmented" role="group" aria-label="Show">
          {FILTERS.map((f) => (
            <button
              key={f.filter}
              type="button"
              aria-pressed={filter === f.filter}
              onClick={() => setFilter(f.filter)}
            >
              {f.label}
            </button>
          ))}
        </div>
        <ErrorText error={error} />
        {results ? (
          <div id="inbox-search-results" className="search-wrap">
            <SearchPanel
              results={results}
              panelRef={panelRef}
              onOpenContact={openContact}
              onOpenHit={openHit}
              onExport={() =>
                void api()
                  .inbox.exportMessages({ query: results.query })
                  .then((csv) => download(`search-${results.query.replace(/\W+/g, '-')}.csv`, csv), setError)
              }
              onLeave={() => searchRef.current?.focus()}
            />
          </div>
        ) : convs.length === 0 ? (
          <p className="muted">
            {filter === 'unread'
              ? 'No unread conversations.'
              : filter === 'archived'
                ? 'No archived conversations.'
                : 'No conversations yet.'}
          </p>
        ) : (
          <VirtualList
            label="Conversations"
            className="conversations"
            items={convs}
            rowHeight={64}
            getKey={(c) => c.id}
            onNearEnd={more}
            renderRow={(c) => (
              <button
                type="button"
                className={`conv ${c.hasUnread ? 'unread' : ''} ${c.id === selected ? 'selected' : ''}`}
                aria-current={c.id === selected ? 'true' : undefined}
                onClick={() => open(c)}
              >
                <span className="conv-top">
                  <span className="conv-name">{c.contactName ?? displayNumber(c.peer)}</span>
                  <span className="muted small">{formatTime(c.lastActivityAt)}</span>
                </span>
                <span className="conv-bottom">
                  <span className="conv-last">
                    {c.lastMessage?.direction === 'out' ? 'You: ' : ''}
                    {c.lastMessage?.text ?? ''}
                  </span>
                  {c.unreadCount > 0 ? (
                    <span className="badge">{c.unreadCount}</span>
                  ) : c.markedUnread ? (
                    <span className="badge dot" aria-label="marked unread" />
                  ) : null}
                </span>
              </button>
            )}
          />
        )}
      </div>
      <div className="thread-pane">
        {current ? (
          <Thread
            key={current.id}
            conv={current}
            enterSends={enterSends}
            onChanged={changed}
            onGone={() => {
              setSelected(null);
              changed();
            }}
            onBack={() => setSelected(null)}
          />
        ) : (
          <p className="muted center">Select a conversation.</p>
        )}
      </div>
      {exporting ? <ExportDialog onClose={() => setExporting(false)} /> : null}
    </section>
  );
}
