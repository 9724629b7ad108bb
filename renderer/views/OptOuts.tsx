// The account's opt-out list (issue 12): numbers that sent STOP (or another opt-out keyword of the
// settings) or that the user added; sends skip them. View, add, remove, export as CSV, and the
// keywords themselves.
import { useEffect, useState } from 'react';
import type { OptOut, Settings } from '../../domain/index.ts';
import { parseRecipientText } from '../../protocol/msisdn.ts';
import { api } from '../api.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';
import { useLiveRead } from '../hooks/useLiveRead.ts';
import { displayNumber, download, formatTime, plural } from '../format.ts';

const words = (s: string): string[] =>
  s
    .split(/[\s,;]+/)
    .map((w) => w.trim().toUpperCase())
    .filter(Boolean);

const readOptOuts = () => api().optouts.list();

export function OptOuts() {
  const [filter, setFilter] = useState('');
  const [adding, setAdding] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [outWords, setOutWords] = useState('');
  const [inWords, setInWords] = useState('');

  // A STOP that arrives while the list is open shows soon (a throttled read: useLiveRead).
  const { data, load } = useLiveRead(readOptOuts, { 'inbox:received': () => true });
  const list: OptOut[] = data ?? [];
  useEffect(() => {
    void api()
      .settings.get()
      .then((s) => {
        setSettings(s);
        setOutWords(s.optOutKeywords.join(', '));
        setInWords(s.optInKeywords.join(', '));
      });
  }, []);

  const add = useAction(async () => {
    const r = await api().optouts.add(parseRecipientText(adding));
    setAdding('');
    setNotice(
      `${plural(r.added, 'number')} added${r.invalid.length ? `; not a number: ${r.invalid.join(', ')}` : ''}.`,
    );
    load();
  });
  const remove = useAction(async (number: string) => {
    await api().optouts.remove([number]);
    setNotice(`+${number} removed: it will be sent to again.`);
    load();
  });
  const saveWords = useAction(async () => {
    const s = await api().settings.update({ optOutKeywords: words(outWords), optInKeywords: words(inWords) });
    setSettings(s);
    setNotice('Keywords saved.');
  });
  const exportCsv = useAction(async () => download('opt-outs.csv', await api().optouts.exportCsv()));

  const shown = filter ? list.filter((o) => o.number.includes(filter.replace(/\D/g, ''))) : list;
  return (
    <section className="opt-outs" aria-labelledby="optouts-title">
      <h2 id="optouts-title">Opt-outs</h2>
      <p className="muted small">
        Nothing is ever sent to these numbers, by any send, mail merge or resend. A number is added when it
        sends {settings ? settings.optOutKeywords.join(' or ') : 'STOP'} and taken off when it sends{' '}
        {settings ? settings.optInKeywords.join(' or ') : 'START'}.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void add.run();
        }}
      >
        <label>
          Add numbers{' '}
          <input
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
            placeholder="+44 7700 900123, …"
          />
        </label>
        <button type="submit" disabled={!adding.trim() || add.busy}>
          Add to opt-outs
        </button>
        <button type="button" onClick={() => void exportCsv.run()} disabled={list.length === 0}>
          Export CSV
        </button>
      </form>
      <ErrorText error={add.error ?? remove.error ?? exportCsv.error ?? saveWords.error} />
      {notice ? (
        <p className="muted" role="status">
          {notice}
        </p>
      ) : null}
      <div className="row spread">
        <span className="muted small" data-testid="optout-count">
          {plural(list.length, 'number')} opted out
        </span>
        <input
          type="search"
          aria-label="Find a number"
          placeholder="Find a number"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      <table className="table" data-testid="optout-list">
        <thead>
          <tr>
            <th>Number</th>
            <th>How</th>
            <th>Since</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {shown.map((o) => (
            <tr key={o.number}>
              <td>{displayNumber(o.number)}</td>
              <td>{o.source === 'keyword' ? `sent ${o.keyword ?? 'a keyword'}` : 'added by you'}</td>
              <td className="muted">{formatTime(o.createdAt)}</td>
              <td>
                <button type="button" className="link" onClick={() => void remove.run(o.number)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void saveWords.run();
        }}
      >
        <label>
          Opt-out keywords <input value={outWords} onChange={(e) => setOutWords(e.target.value)} />
        </label>
        <label>
          Opt-in keywords <input value={inWords} onChange={(e) => setInWords(e.target.value)} />
        </label>
        <button type="submit" disabled={saveWords.busy}>
          Save keywords
        </button>
      </form>
    </section>
  );
}
