import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type {
  ConversationCursor,
  ConversationSummary,
  MessageRecord,
  SearchResults,
  ThreadCursor,
} from '../../preload/api.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { analyzeText } from '../../protocol/sms.ts';
import { api, useEvent } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { useAction } from '../hooks/useAction.ts';
import { StatusPill } from '../components/StatusPill.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { displayNumber, download, formatTime, snippetParts } from '../format.ts';
import type { ComposeDraft } from './compose/Compose.tsx';
import { ErrorText } from '../components/ErrorText.tsx';

const PAGE = 200;

export function Inbox({
  onUnreadChanged,
  onCompose,
  searchFocus,
}: {
  onUnreadChanged: () => void;
  onCompose: (d: ComposeDraft) => void;
  searchFocus: number;
}) {
  const [convs, setConvs] = useState<ConversationSummary[]>([]);
  const [cursor, setCursor] = useState<ConversationCursor | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  // What the thread needs when the conversation is not in the loaded pages (a search hit).
  const [selectedRef, setSelectedRef] = useState<ConvRef | null>(null);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<SearchResults | null>(null);
  const [error, setError] = useState<unknown>(null);
  const loading = useRef(false);
  const searchRef = useRef<HTMLInputElement>(null);

  const reload = useCallback(() => {
    api()
      .inbox.conversations({ limit: PAGE })
      .then(
        (p) => {
          setConvs(p.items);
          setCursor(p.next);
        },
        (e: unknown) => setError(e),
      );
  }, []);
  useEffect(reload, [reload]);
  useEffect(() => {
    if (searchFocus > 0) searchRef.current?.focus();
  }, [searchFocus]);

  const more = useCallback(() => {
    if (!cursor || loading.current) return;
    loading.current = true;
    api()
      .inbox.conversations({ cursor, limit: PAGE })
      .then((p) => {
        setConvs((c) => [...c, ...p.items]);
        setCursor(p.next);
      })
      .catch((e: unknown) => setError(e))
      .finally(() => (loading.current = false));
  }, [cursor]);

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

  const search = (e: FormEvent) => {
    e.preventDefault();
    if (!query.trim()) {
      setResults(null);
      return;
    }
    api()
      .inbox.search({ query: query.trim(), limit: 50 })
      .then(setResults, (err: unknown) => setError(err));
  };

  const open = (ref: ConvRef) => {
    setSelected(ref.id);
    setSelectedRef(ref);
    setResults(null);
  };

  const found = convs.find((c) => c.id === selected);
  const current: ConvRef | null = found
    ? { id: found.id, peer: found.peer, contactName: found.contactName, hasUnread: found.hasUnread }
    : selectedRef && selectedRef.id === selected
      ? selectedRef
      : null;

  return (
    <section className="view inbox" aria-labelledby="inbox-title">
      <div className="inbox-list">
        <div className="row spread">
          <h1 id="inbox-title">Inbox</h1>
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
        </div>
        <form role="search" onSubmit={search}>
          <input
            ref={searchRef}
            type="search"
            aria-label="Search messages and contacts"
            placeholder="Search (Ctrl+F)"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              if (!e.target.value) setResults(null);
            }}
          />
        </form>
        <ErrorText error={error} />
        {results ? (
          <div
            className="search-results"
            role="region"
            aria-label="Search results"
            data-testid="search-results"
          >
            <p className="muted small">
              {results.messages.length} message(s), {results.contacts.length} contact(s) for “{results.query}”
            </p>
            <ul className="plain">
              {results.contacts.map((c) => (
                <li key={`c${c.id}`}>
                  <button type="button" className="link" onClick={() => onCompose({ contactIds: [c.id] })}>
                    {c.name} · {displayNumber(c.number)}
                  </button>
                </li>
              ))}
              {results.messages.map((h) => (
                <li key={`m${h.message.id}`}>
                  <button
                    type="button"
                    className="hit"
                    onClick={() =>
                      open({
                        id: h.message.conversationId,
                        peer: h.message.peer,
                        contactName: h.contactName,
                        hasUnread: h.message.direction === 'in' && !h.message.read,
                      })
                    }
                  >
                    <strong>{h.contactName ?? displayNumber(h.message.peer)}</strong>{' '}
                    <span>
                      {snippetParts(h.snippet).map((p, i) =>
                        p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : convs.length === 0 ? (
          <p className="muted">No conversations yet.</p>
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
            onChanged={() => {
              reload();
              onUnreadChanged();
            }}
            onDeleted={() => {
              setSelected(null);
              reload();
              onUnreadChanged();
            }}
          />
        ) : (
          <p className="muted center">Select a conversation.</p>
        )}
      </div>
    </section>
  );
}

interface ConvRef {
  id: number;
  peer: string;
  contactName: string | null;
  hasUnread: boolean;
}

function Thread({
  conv,
  onChanged,
  onDeleted,
}: {
  conv: ConvRef;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const [messages, setMessages] = useState<MessageRecord[]>([]);
  const [next, setNext] = useState<ThreadCursor | null>(null);
  const [reply, setReply] = useState('');
  const [error, setError] = useState<unknown>(null);
  const dialog = useDialog();
  const endRef = useRef<HTMLDivElement>(null);

  const load = useCallback(() => {
    api()
      .inbox.thread({ conversationId: conv.id, limit: 100 })
      .then(
        (p) => {
          setMessages(p.items.slice().reverse());
          setNext(p.next);
        },
        (e: unknown) => setError(e),
      );
  }, [conv.id]);

  useEffect(() => {
    load();
    if (conv.hasUnread) void api().inbox.markRead(conv.id).then(onChanged);
    // Opening marks read once; onChanged is stable enough for this purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conv.id]);
  useEffect(() => {
    // A block body: newer Chromium returns a Promise from scrollIntoView, which an effect must not return.
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages.length]);

  useEvent('inbox:received', (p) => {
    if (p.messages.some((m) => m.conversationId === conv.id)) {
      load();
      void api().inbox.markRead(conv.id).then(onChanged);
    }
  });
  useEvent('inbox:receipt', (p) => {
    setMessages((ms) => ms.map((m) => (m.id === p.message.id ? p.message : m)));
  });
  useEvent('outbox:progress', (p) => {
    if (p.outcomes.some((o) => o.to === conv.peer)) load();
  });

  const older = () => {
    if (!next) return;
    api()
      .inbox.thread({ conversationId: conv.id, cursor: next, limit: 100 })
      .then(
        (p) => {
          setMessages((ms) => [...p.items.slice().reverse(), ...ms]);
          setNext(p.next);
        },
        (e: unknown) => setError(e),
      );
  };

  const tooLong = analyzeText(reply).segments > LIMITS.maxMessageParts;
  const replying = useAction(async (text: string) => {
    await api().send.submit({ recipients: [conv.peer], content: { kind: 'text', text } });
    setReply('');
    load();
    onChanged();
  });
  const sending = replying.busy;
  const sendReply = () => {
    if (!reply.trim() || tooLong || sending) return;
    setError(null);
    void replying.run(reply);
  };

  return (
    <div className="thread" aria-label={`Conversation with ${conv.contactName ?? conv.peer}`} role="region">
      <header className="row spread thread-head">
        <h2>
          {conv.contactName ?? displayNumber(conv.peer)}
          {conv.contactName ? <span className="muted small"> {displayNumber(conv.peer)}</span> : null}
        </h2>
        <div className="row">
          <button type="button" onClick={() => void api().inbox.markUnread(conv.id).then(onChanged)}>
            Mark unread
          </button>
          <button
            type="button"
            onClick={() =>
              void api()
                .inbox.exportCsv(conv.id)
                .then(
                  (csv) => download(`conversation-${conv.peer}.csv`, csv),
                  (e: unknown) => setError(e),
                )
            }
          >
            Export CSV
          </button>
          <button
            type="button"
            className="danger"
            onClick={() =>
              void dialog
                .confirm({
                  title: 'Delete this conversation?',
                  confirmLabel: 'Delete',
                  danger: true,
                })
                .then((yes) => (yes ? api().inbox.delete(conv.id).then(onDeleted) : undefined))
            }
          >
            Delete
          </button>
        </div>
      </header>
      <div className="bubbles" role="log" aria-label="Messages">
        {next ? (
          <button type="button" className="link" onClick={older}>
            Load older messages
          </button>
        ) : null}
        {messages.map((m) => (
          <div key={m.id} className={`bubble ${m.direction}`} data-testid="bubble">
            <div className="bubble-text">
              {m.text}
              {m.automatic ? <span className="auto-badge">auto-reply</span> : null}
            </div>
            <div className="bubble-meta">
              {formatTime(m.createdAt)} {m.direction === 'out' ? <StatusPill status={m.status} /> : null}
            </div>
          </div>
        ))}
        <div ref={endRef} />
      </div>
      <ErrorText error={replying.error !== null ? replying.error : error} />
      <div className="reply">
        <textarea
          aria-label="Reply"
          rows={2}
          value={reply}
          aria-invalid={tooLong}
          onChange={(e) => setReply(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              sendReply();
            }
          }}
        />
        <button
          type="button"
          className="primary"
          onClick={sendReply}
          disabled={sending || !reply.trim() || tooLong}
        >
          Reply
        </button>
      </div>
      {tooLong ? (
        <p className="error">
          Too long: at most {LIMITS.maxMessageParts} parts can be joined into one message.
        </p>
      ) : null}
    </div>
  );
}
