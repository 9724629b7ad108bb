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
  Page,
  SearchResults,
  SendHit,
} from '../../domain/index.ts';
import { summaryLine } from '../../protocol/content-label.ts';
import { api } from '../api.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { displayNumber, download, formatTime } from '../format.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ExportDialog } from './InboxExport.tsx';
import { moveInResults, SearchPanel } from './InboxSearch.tsx';
import { Thread, type ConvRef } from './InboxThread.tsx';
import { AccountScope } from '../components/AccountScope.tsx';

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
  onOpenSend,
}: {
  onUnreadChanged: () => void;
  onCompose?: (d: ComposeDraft) => void;
  searchFocus: number;
  enterSends: boolean;
  /** A conversation to open (a notification's click); a new object opens it again. */
  openConversation?: { peer: string } | null;
  /** Issue 27: a send found by the search, opened in History. */
  onOpenSend?: (s: SendHit) => void;
}) {
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
  /** issue 24: the gateway keeps returning the same messages (said by "Check now") */
  const [pollWarning, setPollWarning] = useState<string | null>(null);
  const loading = useRef(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDetailsElement>(null);

  // The first page, read again (throttled) when a message arrives or a send makes progress (issue 27:
  // the renderer's one way, useLiveRead); the pages scrolled to after it belong to the first page they
  // followed, and go when it is read again.
  const firstPage = useLiveRead(
    useCallback(() => api().inbox.conversations({ limit: PAGE, filter }), [filter]),
    {
      'inbox:received': () => true,
      'outbox:progress': () => true,
      'office:sends': () => true, // issue 28: another desk's send lists or updates a conversation here
    },
  );
  const { load: reload } = firstPage;
  const [later, setLater] = useState<{
    after: Page<ConversationSummary, ConversationCursor> | null;
    items: ConversationSummary[];
    next: ConversationCursor | null;
  }>({ after: null, items: [], next: null });
  const pages = later.after !== null && later.after === firstPage.data ? later : null;
  const convs = [...(firstPage.data?.items ?? []), ...(pages?.items ?? [])];
  const cursor = pages ? pages.next : (firstPage.data?.next ?? null);
  useEffect(() => {
    if (searchFocus > 0) searchRef.current?.focus();
  }, [searchFocus]);

  const more = useCallback(() => {
    if (!cursor || loading.current) return;
    loading.current = true;
    api()
      .inbox.conversations({ cursor, limit: PAGE, filter })
      .then((p) => {
        const after = firstPage.data;
        setLater((l) => ({
          after,
          items: l.after === after ? [...l.items, ...p.items] : p.items,
          next: p.next,
        }));
      })
      .catch((e: unknown) => setError(e))
      .finally(() => (loading.current = false));
  }, [cursor, filter, firstPage.data]);

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
                  .then(
                    (r) => {
                      setPollWarning(r.warning ?? null);
                      reload();
                    },
                    (e: unknown) => setError(e),
                  )
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
        <AccountScope scope="account" what="Replies and conversations" />
        <input
          ref={searchRef}
          type="search"
          role="searchbox"
          aria-label="Search messages and contacts"
          aria-controls={results ? 'inbox-search-results' : undefined}
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
        <ErrorText error={error ?? firstPage.error} />
        {pollWarning ? (
          <p className="warn-text small" role="status" data-testid="poll-warning">
            {pollWarning}
          </p>
        ) : null}
        {results ? (
          <div id="inbox-search-results" className="search-wrap">
            <SearchPanel
              results={results}
              panelRef={panelRef}
              onOpenContact={openContact}
              onOpenHit={openHit}
              onOpenSend={(s) => onOpenSend?.(s)}
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
                    {c.lastMessage?.direction !== 'out'
                      ? ''
                      : c.lastMessage.sentFrom !== undefined
                        ? `Sent from ${c.lastMessage.sentFrom}: `
                        : 'You: '}
                    {c.lastMessage ? summaryLine(c.lastMessage.label, c.lastMessage.text) : ''}
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
