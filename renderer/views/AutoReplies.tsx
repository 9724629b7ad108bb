// Keyword auto-reply rules (issue 12): "inbound text starts with KEYWORD → reply TEXT", enabled per
// rule. The main process answers as messages arrive, at most once per number per rule per day and
// at most the daily cap in all; each reply shows as automatic in its conversation.
import { useEffect, useState } from 'react';
import type { AutoReplyRule } from '../../domain/index.ts';
import { api } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';
import { plural } from '../format.ts';

const readRules = () => api().autoreplies.list();

export function AutoReplies() {
  const [keyword, setKeyword] = useState('');
  const [reply, setReply] = useState('');
  const [cap, setCap] = useState<number | null>(null);
  const dialog = useDialog();

  // The rules and their counts, read again (throttled: the renderer's one way, useLiveRead) as sends
  // progress (an auto-reply is a send) and, in office mode, when a rule changed at another desk (issue 28).
  const { data, load } = useLiveRead(readRules, {
    'outbox:progress': () => true,
    'office:library': () => true,
  });
  const rules: AutoReplyRule[] = data ?? [];
  useEffect(() => {
    void api()
      .settings.get()
      .then((s) => setCap(s.autoReplyDailyCap));
  }, []);

  const add = useAction(async () => {
    await api().autoreplies.create({ keyword, reply });
    setKeyword('');
    setReply('');
    load();
  });
  const toggle = useAction(async (rule: AutoReplyRule) => {
    await api().autoreplies.update({ id: rule.id, enabled: !rule.enabled });
    load();
  });
  const remove = useAction(async (rule: AutoReplyRule) => {
    const yes = await dialog.confirm({
      title: 'Delete auto-reply?',
      message: `Messages starting with ${rule.keyword} will no longer be answered.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!yes) return;
    await api().autoreplies.delete(rule.id);
    load();
  });
  const saveCap = useAction(async (value: number) => {
    const s = await api().settings.update({ autoReplyDailyCap: value });
    setCap(s.autoReplyDailyCap);
  });

  return (
    <section className="auto-replies" aria-labelledby="autoreplies-title">
      <h2 id="autoreplies-title">Keyword auto-replies</h2>
      <p className="muted small">
        Answered while the app runs, at most once per number per rule per day (two machines never loop), and
        never to an opted-out number.
      </p>
      <table className="table" data-testid="auto-reply-rules">
        <thead>
          <tr>
            <th>Starts with</th>
            <th>Reply</th>
            <th>Today</th>
            <th>On</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rules.map((r) => (
            <tr key={r.id}>
              <td>{r.keyword}</td>
              <td>{r.reply}</td>
              <td className="muted">{plural(r.sentToday, 'reply', 'replies')}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Answer ${r.keyword}`}
                  checked={r.enabled}
                  onChange={() => void toggle.run(r)}
                />
              </td>
              <td>
                <button type="button" className="link" onClick={() => void remove.run(r)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="stack"
        aria-label="New auto-reply"
        onSubmit={(e) => {
          e.preventDefault();
          void add.run();
        }}
      >
        <label>
          Inbound text starts with <input value={keyword} onChange={(e) => setKeyword(e.target.value)} />
        </label>
        <label>
          Reply with <textarea rows={2} value={reply} onChange={(e) => setReply(e.target.value)} />
        </label>
        <button type="submit" disabled={!keyword.trim() || !reply.trim() || add.busy}>
          Add auto-reply
        </button>
      </form>
      {cap !== null ? (
        <label className="cap">
          At most{' '}
          <input
            type="number"
            min={0}
            value={cap}
            onChange={(e) => setCap(Number(e.target.value))}
            onBlur={() => void saveCap.run(cap)}
            aria-label="Auto-replies per day at most"
          />{' '}
          auto-replies a day
        </label>
      ) : null}
      <ErrorText error={add.error ?? toggle.error ?? remove.error ?? saveCap.error} />
    </section>
  );
}
