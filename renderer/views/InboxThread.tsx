// One conversation of the Inbox: its messages (older pages on demand), the reply box (Enter sends,
// Shift+Enter makes a new line, or the other way round by the `enterSends` setting), and the
// conversation's actions (mark unread, archive, export, delete, add an unknown sender to contacts).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MessageRecord, ThreadCursor } from '../../domain/index.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { analyzeText } from '../../protocol/sms.ts';
import { api, useEvent } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { StatusPill } from '../components/StatusPill.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';
import { displayNumber, download, formatTime } from '../format.ts';

/** Messages per page: the first read and each "Load older messages". */
const PAGE = 100;

export interface ConvRef {
  id: number;
  peer: string;
  contactName: string | null;
  hasUnread: boolean;
  archived: boolean;
}

/** What is sent for what was typed: trailing whitespace (a final Enter) never goes out. */
export function replyText(typed: string): string {
  return typed.trimEnd();
}

export function Thread({
  conv,
  enterSends,
  onChanged,
  onGone,
  onBack,
}: {
  conv: ConvRef;
  enterSends: boolean;
  onChanged: () => void;
  /** Deleted, archived or unarchived: it leaves the list shown. */
  onGone: () => void;
  /** Back to the list (shown where the window is too narrow for both). */
  onBack: () => void;
}) {
  const [reply, setReply] = useState('');
  const [actionError, setError] = useState<unknown>(null);
  const [contactName, setContactName] = useState(conv.contactName);
  const dialog = useDialog();
  const endRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);

  // The conversation as far back as the user has asked ("Load older messages" asks for a page more),
  // read again (throttled: the renderer's one way, useLiveRead) when a message of it arrives, a
  // receipt changes one of its messages or a send to its number makes progress. Read whole, never
  // merged: a message that arrives does not drop the older pages, a receipt of an old one shows.
  const [depth, setDepth] = useState(PAGE);
  const read = useCallback(async (): Promise<{ items: MessageRecord[]; next: ThreadCursor | null }> => {
    const items: MessageRecord[] = [];
    let next: ThreadCursor | null = null;
    do {
      const p = await api().inbox.thread({
        conversationId: conv.id,
        ...(next ? { cursor: next } : {}),
        limit: Math.min(PAGE, depth - items.length),
      });
      items.push(...p.items);
      next = p.next;
    } while (next !== null && items.length < depth);
    return { items: items.reverse(), next };
  }, [conv.id, depth]);
  const thread = useLiveRead(read, {
    'inbox:received': (p) => p.messages.some((m) => m.conversationId === conv.id),
    'inbox:receipt': (p) => p.message.conversationId === conv.id,
    'outbox:progress': (p) => p.batch.recipients.includes(conv.peer),
    'office:sends': () => true, // issue 28: another desk's send (to this number, maybe) came or changed
  });
  const { load } = thread;
  const current = thread.data;
  const messages = current?.items ?? [];
  const next = current?.next ?? null;
  const error = actionError ?? thread.error;

  useEffect(() => {
    if (conv.hasUnread) void api().inbox.markRead(conv.id).then(onChanged);
    // Opening marks read once; onChanged is stable enough for this purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conv.id]);
  useEffect(() => {
    // A block body: newer Chromium returns a Promise from scrollIntoView, which an effect must not return.
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages.length]);
  // A message that arrives in the open conversation is read (an action, not a copy of the event).
  useEvent('inbox:received', (p) => {
    if (p.messages.some((m) => m.conversationId === conv.id))
      void api().inbox.markRead(conv.id).then(onChanged);
  });

  const older = () => {
    if (next) setDepth(messages.length + PAGE);
  };

  const text = replyText(reply);
  const tooLong = analyzeText(text).segments > LIMITS.maxMessageParts;
  const replying = useAction(async (t: string) => {
    await api().send.submit({ recipients: [conv.peer], content: { kind: 'text', text: t } });
    setReply('');
    load();
    onChanged();
  });
  const sending = replying.busy;
  const sendReply = () => {
    if (!text.trim() || tooLong || sending) return;
    setError(null);
    // Focus stays in the box: the next reply can be typed at once.
    void replying.run(text).finally(() => boxRef.current?.focus());
  };

  const act = (p: Promise<unknown>) => p.then(onChanged, (e: unknown) => setError(e));
  const addContact = () =>
    void dialog
      .askText({
        title: `Add ${displayNumber(conv.peer)} to contacts`,
        label: 'Name',
        confirmLabel: 'Add contact',
        required: 'Type a name.',
      })
      .then((name) =>
        name
          ? api()
              .contacts.add({ name: name.trim(), number: conv.peer })
              .then((c) => {
                setContactName(c.name);
                onChanged();
              })
          : undefined,
      )
      .catch((e: unknown) => setError(e));
  const unknownSender = contactName === null && /^\d+$/.test(conv.peer);

  return (
    <div className="thread" aria-label={`Conversation with ${contactName ?? conv.peer}`} role="region">
      <header className="thread-head">
        <button type="button" className="back" onClick={onBack} aria-label="Back to the conversations">
          ‹ Back
        </button>
        <h2>
          {contactName ?? displayNumber(conv.peer)}
          {contactName ? <span className="muted small"> {displayNumber(conv.peer)}</span> : null}
        </h2>
        <div className="row actions">
          {unknownSender ? (
            <button type="button" onClick={addContact}>
              Add to contacts
            </button>
          ) : null}
          <button type="button" onClick={() => void act(api().inbox.markUnread(conv.id))}>
            Mark unread
          </button>
          <button
            type="button"
            onClick={() =>
              void api()
                .inbox.setArchived({ conversationId: conv.id, archived: !conv.archived })
                .then(onGone, (e: unknown) => setError(e))
            }
          >
            {conv.archived ? 'Unarchive' : 'Archive'}
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
                .then((yes) => (yes ? api().inbox.delete(conv.id).then(onGone) : undefined))
                .catch((e: unknown) => setError(e))
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
        {messages.length === 0 ? <p className="muted center">No messages yet.</p> : null}
        {messages.map((m) => (
          <div key={m.id} className={`bubble ${m.direction}`} data-testid="bubble">
            {m.label !== null ? (
              <div className="bubble-label" data-testid="bubble-label">
                {m.label}
              </div>
            ) : null}
            <div className="bubble-text">
              {m.text}
              {m.automatic ? <span className="auto-badge">auto-reply</span> : null}
            </div>
            <div className="bubble-meta">
              {formatTime(m.createdAt)} {m.direction === 'out' ? <StatusPill status={m.status} /> : null}
              {m.sentFrom !== undefined ? <span className="sent-from"> · sent from {m.sentFrom}</span> : null}
            </div>
          </div>
        ))}
        <div ref={endRef} />
      </div>
      <ErrorText error={replying.error !== null ? replying.error : error} />
      <div className="reply">
        <textarea
          ref={boxRef}
          aria-label="Reply"
          aria-describedby="reply-keys"
          rows={2}
          value={reply}
          aria-invalid={tooLong}
          onChange={(e) => setReply(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
            const mod = e.ctrlKey || e.metaKey;
            const sends = enterSends ? !e.shiftKey || mod : mod;
            if (sends) {
              e.preventDefault();
              sendReply();
            }
          }}
        />
        <button
          type="button"
          className="primary"
          onClick={sendReply}
          disabled={sending || !text.trim() || tooLong}
        >
          Reply
        </button>
      </div>
      <p id="reply-keys" className="muted small reply-keys">
        {enterSends
          ? 'Enter to send · Shift+Enter for a new line'
          : 'Ctrl+Enter to send · Enter for a new line'}{' '}
        (Account → Settings)
      </p>
      {tooLong ? (
        <p className="error">
          Too long: at most {LIMITS.maxMessageParts} parts can be joined into one message.
        </p>
      ) : null}
    </div>
  );
}
