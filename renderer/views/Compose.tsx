import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type {
  Contact,
  ContentKind,
  Credit,
  DeliveryOption,
  Group,
  OutboxContent,
  OutboxJob,
  RecipientOutcome,
  Template,
} from '../../preload/api.ts';
import { PHONE_MAKE_REQUIRED, requiredPhoneMake, type PhoneMakeOnly } from '../../protocol/fields.ts';
import { DELIVERY_OPTIONS, LIMITS, PHONE_MAKES, type PhoneMake } from '../../protocol/limits.ts';
import { normalizeMsisdn, parseRecipientText } from '../../protocol/msisdn.ts';
import { analyzeText } from '../../protocol/sms.ts';
import { validateRequest, type Problem } from '../../protocol/validate.ts';
import { api, errorText, SEND_REQUEST_EVENT, useEvent } from '../api.ts';
import { ApiCallError } from '../bridge/web.ts';
import { StatusPill } from '../components/StatusPill.tsx';
import { toUtcSendTime } from '../format.ts';
import { EDITORS } from './media/registry.ts';
import { draftContent, type ContentDraft } from './media/types.ts';

/** Whether this kind's request needs PhoneMake (spec 2.4): fixed (a group graphic's Nokia), chosen, or none. */
function phoneMakeRule(kind: ContentKind): { fixed: PhoneMakeOnly } | 'choose' | 'none' {
  const fixed = requiredPhoneMake(kind);
  if (fixed) return { fixed };
  return (PHONE_MAKE_REQUIRED as readonly string[]).includes(kind) ? 'choose' : 'none';
}

/** What another view asks Compose to start with (reply, resend, send to group). */
export interface ComposeDraft {
  numbers?: string[];
  contactIds?: number[];
  groupIds?: number[];
  text?: string;
}

type Chip =
  | { kind: 'number'; key: string; input: string; msisdn: string }
  | { kind: 'invalid'; key: string; input: string; reason: string }
  | { kind: 'contact'; key: string; contact: Contact }
  | { kind: 'group'; key: string; group: Group };

let chipSeq = 0;

function makeNumberChip(input: string, country: string | undefined): Chip {
  const r = normalizeMsisdn(input, country);
  return r.ok
    ? { kind: 'number', key: key(), input, msisdn: r.msisdn }
    : { kind: 'invalid', key: key(), input, reason: r.reason };
}
const key = () => `c${++chipSeq}`;

/** Of two snapshots of the same job, the one with fewer recipients still pending or sending. */
function laterSnapshot(current: OutboxJob | null, next: OutboxJob): OutboxJob {
  if (!current || current.id !== next.id) return next;
  const open = (j: OutboxJob) => j.counts.pending + j.counts.sending;
  return open(next) <= open(current) ? next : current;
}

export function Compose({ draft, credit }: { draft: ComposeDraft | null; credit: Credit | null }) {
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [groups, setGroups] = useState<Group[]>([]);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [replyTos, setReplyTos] = useState<string[]>([]);
  const [country, setCountry] = useState<string | undefined>(undefined);
  const [chips, setChips] = useState<Chip[]>([]);
  const [entry, setEntry] = useState('');
  const [text, setText] = useState(draft?.text ?? '');
  const [kind, setKind] = useState<ContentKind>('text');
  const [richDraft, setRichDraft] = useState<ContentDraft | null>(null);
  const [phoneMake, setPhoneMake] = useState<PhoneMake | ''>('Nokia');
  const flash = kind === 'flash';
  const rich = kind !== 'text' && kind !== 'flash';
  const editor = rich ? EDITORS[kind] : undefined;
  const makeRule = phoneMakeRule(kind);
  const fixedMake = typeof makeRule === 'object' ? makeRule.fixed : null;
  const effectiveMake = fixedMake ? fixedMake.make : makeRule === 'choose' ? phoneMake : '';
  const [replyTo, setReplyTo] = useState('');
  const [delivery, setDelivery] = useState<DeliveryOption>('Default');
  const [schedule, setSchedule] = useState<'now' | 'delay' | 'at'>('now');
  const [delay, setDelay] = useState('60');
  const [at, setAt] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<OutboxJob | null>(null);
  const [outcomes, setOutcomes] = useState<Map<string, RecipientOutcome>>(new Map());
  const [notice, setNotice] = useState<string | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const a = api();
    void Promise.all([a.contacts.list(), a.groups.list(), a.templates.list(), a.settings.get()]).then(
      ([c, g, t, s]) => {
        setContacts(c);
        setGroups(g);
        setTemplates(t);
        const defaultCountry = s.defaultCountry || undefined;
        setCountry(defaultCountry);
        // Numbers typed or pasted before the settings arrived were read without the default
        // country: read them again now (a national 07700 … is valid then).
        setChips((cs) =>
          cs.map((c) =>
            c.kind === 'number' || c.kind === 'invalid'
              ? { ...makeNumberChip(c.input, defaultCountry), key: c.key }
              : c,
          ),
        );
        if (draft) {
          const next: Chip[] = [];
          for (const id of draft.contactIds ?? []) {
            const contact = c.find((x) => x.id === id);
            if (contact) next.push({ kind: 'contact', key: key(), contact });
          }
          for (const id of draft.groupIds ?? []) {
            const group = g.find((x) => x.id === id);
            if (group) next.push({ kind: 'group', key: key(), group });
          }
          for (const n of draft.numbers ?? []) next.push(makeNumberChip(n, defaultCountry));
          setChips(next);
        }
      },
      (e: unknown) => setErrors([errorText(e)]),
    );
    a.send.permittedReplyTo().then(setReplyTos, () => setReplyTos([]));
  }, [draft]);

  const numberChip = (input: string): Chip => makeNumberChip(input, country);

  function addTokens(raw: string) {
    const tokens =
      raw.includes('\n') || raw.includes(',') || raw.includes(';') ? parseRecipientText(raw) : [raw.trim()];
    const next: Chip[] = [];
    for (const t of tokens) {
      if (!t) continue;
      const lower = t.toLowerCase().replace(/^@/, '');
      const group = groups.find((g) => g.name.toLowerCase() === lower);
      const contact = contacts.find((c) => c.name.toLowerCase() === lower);
      if (group) next.push({ kind: 'group', key: key(), group });
      else if (contact) next.push({ kind: 'contact', key: key(), contact });
      else next.push(numberChip(t));
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

  const analysis = useMemo(() => analyzeText(text, { flash }), [text, flash]);
  const characters = analysis.characters;
  // The one length limit of a text: parts of one concatenated SMS (protocol LIMITS.maxMessageParts).
  const tooLong = analysis.segments > LIMITS.maxMessageParts;
  const invalid = chips.filter((c): c is Extract<Chip, { kind: 'invalid' }> => c.kind === 'invalid');
  const approxRecipients = chips.reduce(
    (n, c) => n + (c.kind === 'group' ? c.group.memberCount : c.kind === 'invalid' ? 0 : 1),
    0,
  );
  const costMessages = approxRecipients * Math.max(analysis.segments, 1);

  /** The rich draft's own problems, then protocol validation of the sendmms request it becomes. */
  function richProblems(): string[] {
    if (!richDraft || richDraft.kind !== kind) return ['The content editor is not ready yet.'];
    const out = [...richDraft.problems];
    const fields: Record<string, string> = {
      Username: 'user',
      PIN: 'pin',
      SendTo: '447700900000',
      ...richDraft.fields,
    };
    if (richDraft.text !== '') fields.Message = richDraft.text;
    if (effectiveMake) fields.PhoneMake = effectiveMake;
    if (replyTo) fields.ReplyTo = replyTo;
    if (schedule === 'delay') fields.SendTimeDelay = delay;
    if (schedule === 'at') {
      const utc = toUtcSendTime(at);
      if (!utc) out.push('Choose a valid date and time for the scheduled send.');
      else if (new Date(at).getTime() < Date.now()) out.push('The scheduled time is in the past.');
      else fields.SendTimeAbsolute = utc;
    }
    // The editor's own sentences come first; protocol problems of fields it already explained are not repeated.
    const explained = richDraft.problems.length > 0;
    for (const p of validateRequest('sendmms', fields) as Problem[]) {
      if (p.field === 'Username' || p.field === 'PIN' || p.field === 'SendTo') continue;
      if (explained && p.field in richDraft.fields) continue;
      if (!out.includes(p.message)) out.push(p.message);
    }
    return out;
  }

  /** Everything wrong with the form, before anything is sent (protocol validation + UI rules). */
  function problems(): string[] {
    const out: string[] = [];
    const pending = entry.trim();
    if (pending) out.push(`Press Enter to add “${pending}” as a recipient, or clear it.`);
    if (chips.length === 0) out.push('Add at least one recipient.');
    for (const c of invalid) out.push(`${c.input}: ${c.reason}`);
    if (rich) return out.concat(richProblems());
    if (!text) out.push('The message is empty.');
    if (tooLong)
      out.push(
        `The message needs ${analysis.segments} parts; at most ${LIMITS.maxMessageParts} can be joined into one message.`,
      );
    const fields: Record<string, string> = {
      Username: 'user',
      PIN: 'pin',
      SendTo:
        chips
          .filter((c) => c.kind === 'number')
          .map((c) => (c.kind === 'number' ? c.msisdn : ''))
          .join(',') || '447700900000',
      [flash ? 'FlashMessage' : 'Message']: text || ' ',
    };
    if (replyTo) fields.ReplyTo = replyTo;
    if (delivery !== 'Default') fields.DeliveryServiceOption = delivery;
    if (schedule === 'delay') fields.SendTimeDelay = delay;
    if (schedule === 'at') {
      const utc = toUtcSendTime(at);
      if (!utc) out.push('Choose a valid date and time for the scheduled send.');
      else if (new Date(at).getTime() < Date.now()) out.push('The scheduled time is in the past.');
      else fields.SendTimeAbsolute = utc;
    }
    const skip = new Set(['Username', 'PIN', 'Message', 'FlashMessage', 'SendTo']);
    for (const p of validateRequest('sendsms', fields) as Problem[])
      if (!skip.has(p.field)) out.push(p.message);
    return out;
  }

  useEvent('outbox:progress', (p) => {
    if (!job || p.jobId !== job.id) return;
    setJob((current) => laterSnapshot(current, p.job));
    setOutcomes((m) => {
      const next = new Map(m);
      for (const o of p.outcomes) next.set(o.to, o);
      return next;
    });
  });
  useEvent('inbox:receipt', (p) => {
    const msg = p.message;
    if (!job || msg.jobId !== job.id) return;
    setOutcomes((m) => {
      const prev = m.get(msg.peer);
      if (!prev) return m;
      const next = new Map(m);
      next.set(msg.peer, {
        ...prev,
        status: msg.status as RecipientOutcome['status'],
        receiptReport: msg.receiptReport,
      });
      return next;
    });
  });

  function send() {
    if (busy) return;
    const found = problems();
    setErrors(found);
    setNotice(null);
    if (found.length) return;
    const base: OutboxContent =
      rich && richDraft
        ? (() => {
            const c = draftContent(richDraft);
            return { ...c, fields: { ...c.fields, ...(effectiveMake ? { PhoneMake: effectiveMake } : {}) } };
          })()
        : { kind: flash ? 'flash' : 'text', text };
    const content: OutboxContent = {
      ...base,
      ...(replyTo ? { replyTo } : {}),
      ...(delivery !== 'Default' && !rich ? { deliveryOption: delivery } : {}),
      ...(schedule === 'delay' ? { sendTimeDelay: Number(delay) } : {}),
      ...(schedule === 'at' ? { sendTimeAbsolute: toUtcSendTime(at) ?? '' } : {}),
    };
    setBusy(true);
    setOutcomes(new Map());
    api()
      .send.submit({
        recipients: chips.flatMap((c) => (c.kind === 'number' ? [c.msisdn] : [])),
        contactIds: chips.flatMap((c) => (c.kind === 'contact' ? [c.contact.id] : [])),
        groupIds: chips.flatMap((c) => (c.kind === 'group' ? [c.group.id] : [])),
        content,
      })
      .then(
        (accepted) => {
          setJob((current) => laterSnapshot(current, accepted.job));
          // A small send can finish before submit() answers: its progress events came while no job was
          // shown, so read the job back once instead of showing it as still pending.
          void api()
            .outbox.job(accepted.job.id)
            .then((fresh) => {
              if (fresh) setJob((current) => laterSnapshot(current, fresh));
            });
          void api()
            .outbox.recipients(accepted.job.id)
            .then((list) =>
              setOutcomes((m) => {
                const next = new Map(list.map((o) => [o.to, o] as const));
                for (const [k, v] of m) next.set(k, v);
                return next;
              }),
            );
          if (accepted.invalid.length)
            setErrors(accepted.invalid.map((i) => `${i.input}: ${i.reason} (not sent)`));
          setNotice(`Sending to ${accepted.job.recipientCount} recipient(s)…`);
        },
        (e: unknown) => {
          if (e instanceof ApiCallError && e.problems?.length) setErrors(e.problems.map((p) => p.message));
          else setErrors([errorText(e)]);
        },
      )
      .finally(() => setBusy(false));
  }

  const sendRef = useRef(send);
  useEffect(() => {
    sendRef.current = send;
  });
  useEffect(() => {
    const onRequest = () => sendRef.current();
    window.addEventListener(SEND_REQUEST_EVENT, onRequest);
    return () => window.removeEventListener(SEND_REQUEST_EVENT, onRequest);
  }, []);

  const onTextKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      send();
    }
  };

  // While the rich content itself cannot be sent, Send is disabled and the reasons are listed.
  const contentIssues = rich ? (richDraft && richDraft.kind === kind ? richDraft.problems : []) : [];
  const contentBlocked = contentIssues.length > 0;

  const done = job ? job.recipientCount - job.counts.pending - job.counts.sending : 0;
  const pct = job && job.recipientCount ? Math.round((done / job.recipientCount) * 100) : 0;
  const saveTemplate = () => {
    const name = window.prompt('Template name');
    if (!name) return;
    api()
      .templates.create({ name, text })
      .then(
        (t) => setTemplates((ts) => [...ts, t]),
        (e: unknown) => setErrors([errorText(e)]),
      );
  };

  return (
    <section className="view compose" aria-labelledby="compose-title" onKeyDown={onTextKey}>
      <h1 id="compose-title">Compose</h1>
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
        {invalid.length ? (
          <p className="error" role="alert">
            {invalid.length} invalid number{invalid.length > 1 ? 's' : ''}: fix or remove before sending.
          </p>
        ) : null}
      </div>

      <div className="row wrap content-choice">
        <div className="labelled">
          <label htmlFor="content-kind">Content</label>
          <select
            id="content-kind"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as ContentKind);
              setRichDraft(null);
              setErrors([]);
            }}
          >
            <option value="text">Text</option>
            <option value="flash">Flash</option>
            {Object.entries(EDITORS).map(([k, entry]) => (
              <option key={k} value={k}>
                {entry.label}
              </option>
            ))}
          </select>
        </div>
        {makeRule !== 'none' ? (
          <div className="labelled">
            <label htmlFor="phone-make">Phone make</label>
            <select
              id="phone-make"
              value={effectiveMake}
              disabled={fixedMake !== null}
              aria-describedby={fixedMake ? 'phone-make-note' : undefined}
              onChange={(e) => setPhoneMake(e.target.value as PhoneMake | '')}
            >
              <option value="">Choose…</option>
              {PHONE_MAKES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {fixedMake ? (
          <span id="phone-make-note" className="muted small">
            {fixedMake.what} are sent to {fixedMake.make} handsets only.
          </span>
        ) : null}
      </div>

      {editor ? (
        <div className="field media" aria-label={`${editor.label} content`} role="group">
          <editor.Editor key={kind} onChange={setRichDraft} />
          {richDraft && richDraft.kind === kind ? (
            <p className="muted small" data-testid="content-summary">
              {richDraft.summary}
            </p>
          ) : null}
        </div>
      ) : (
        <div className="field">
          <div className="row spread">
            <label htmlFor="message">Message</label>
            {templates.length ? (
              <select
                aria-label="Insert template"
                value=""
                onChange={(e) => {
                  const t = templates.find((x) => String(x.id) === e.target.value);
                  if (t) setText(t.text);
                }}
              >
                <option value="">Templates…</option>
                {templates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            ) : null}
          </div>
          <textarea
            id="message"
            ref={textRef}
            rows={6}
            value={text}
            aria-invalid={tooLong}
            aria-describedby="counter"
            onChange={(e) => setText(e.target.value)}
          />
          <div
            id="counter"
            className={tooLong ? 'counter error' : 'counter'}
            aria-live="polite"
            data-testid="counter"
          >
            <span>{analysis.encoding}</span>
            <span>
              {characters} character{characters === 1 ? '' : 's'}
            </span>
            <span>
              {analysis.segments} segment{analysis.segments === 1 ? '' : 's'}
            </span>
            <span>{analysis.remaining} left in segment</span>
            <span>
              ≈ {costMessages} message credit{costMessages === 1 ? '' : 's'}
            </span>
            {credit && credit.availableMessages !== null ? (
              <span>of {credit.availableMessages} available</span>
            ) : null}
          </div>
          {analysis.nonGsm.length ? (
            <p className="muted small">
              UCS-2 because of:{' '}
              {analysis.nonGsm
                .slice(0, 10)
                .map((ch) => `“${ch}”`)
                .join(' ')}{' '}
              (70 characters per SMS instead of 160)
            </p>
          ) : null}
          {tooLong ? (
            <p className="error" role="alert">
              Too long: {analysis.segments} parts, at most {LIMITS.maxMessageParts} can be joined into one
              message.
            </p>
          ) : null}
        </div>
      )}

      <div className="options">
        <label>
          Reply to
          <select value={replyTo} onChange={(e) => setReplyTo(e.target.value)}>
            <option value="">Account default</option>
            {replyTos.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        {rich ? null : (
          <label>
            Delivery
            <select value={delivery} onChange={(e) => setDelivery(e.target.value as DeliveryOption)}>
              {DELIVERY_OPTIONS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Send
          <select value={schedule} onChange={(e) => setSchedule(e.target.value as typeof schedule)}>
            <option value="now">Now</option>
            <option value="delay">After a delay</option>
            <option value="at">At a time</option>
          </select>
        </label>
        {schedule === 'delay' ? (
          <label>
            Minutes
            <input
              type="number"
              min={LIMITS.sendTimeDelayMin}
              max={LIMITS.sendTimeDelayMax}
              value={delay}
              onChange={(e) => setDelay(e.target.value)}
            />
          </label>
        ) : null}
        {schedule === 'at' ? (
          <label>
            Local time
            <input type="datetime-local" step={1} value={at} onChange={(e) => setAt(e.target.value)} />
            {toUtcSendTime(at) ? <span className="muted small">UTC {toUtcSendTime(at)}</span> : null}
          </label>
        ) : null}
      </div>

      {contentBlocked ? (
        <div
          className="content-problems"
          id="content-problems"
          data-testid="content-problems"
          aria-live="polite"
        >
          <strong>Not ready to send:</strong>
          <ul>
            {contentIssues.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {errors.length ? (
        <div className="errors" role="alert" data-testid="compose-errors">
          <strong>Nothing was sent:</strong>
          <ul>
            {errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={send}
          disabled={busy || contentBlocked}
          aria-describedby={contentBlocked ? 'content-problems' : undefined}
          title="Ctrl+Enter"
        >
          {busy ? 'Sending…' : 'Send'}
        </button>
        <button type="button" onClick={saveTemplate} disabled={!text || rich}>
          Save as template
        </button>
        {job && done === job.recipientCount ? (
          <span className="muted">All {job.recipientCount} recipient(s) answered.</span>
        ) : notice ? (
          <span className="muted">{notice}</span>
        ) : null}
      </div>

      {job ? (
        <div className="results" aria-label="Send results">
          <progress max={100} value={pct} aria-label="Send progress" />
          <div className="muted small">
            {done}/{job.recipientCount} answered —{' '}
            {job.counts.accepted + job.counts.queued + job.counts.delivered} accepted,{' '}
            {job.counts.rejected + job.counts.failed} failed, {job.counts.unknown} unknown
          </div>
          <table className="table" data-testid="send-results">
            <thead>
              <tr>
                <th>Recipient</th>
                <th>Status</th>
                <th>Report</th>
              </tr>
            </thead>
            <tbody>
              {[...outcomes.values()].map((o) => (
                <tr key={o.to}>
                  <td>+{o.to}</td>
                  <td>
                    <StatusPill status={o.status} />
                  </td>
                  <td className="muted">{o.reportText ?? o.report ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
