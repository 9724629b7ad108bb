// The Compose view: recipients, content (text, flash or a rich kind), send options and the results of
// the send, each its own part; useComposeValidation lists every problem before anything is sent.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type {
  Contact,
  ContentKind,
  Credit,
  Group,
  SendEstimate,
  SavedDraft,
  SendRequest,
  Template,
} from '../../../domain/index.ts';
import { isRichKind } from '../../../protocol/content.ts';
import type { PhoneMake } from '../../../protocol/limits.ts';
import { api, SEND_REQUEST_EVENT, useEvent } from '../../api.ts';
import { useDialog } from '../../components/Dialog.tsx';
import { ErrorText, errorParts } from '../../components/ErrorText.tsx';
import { plural } from '../../format.ts';
import { useAction } from '../../hooks/useAction.ts';
import type { EditorReport } from '../media/types.ts';
import { ContentChoice, effectivePhoneMake, MessageBox, RichContent } from './MessageBox.tsx';
import { DEFAULT_OPTIONS, Options, type SendOptions } from './Options.tsx';
import { makeNumberChip, Recipients, usePasteState, type Chip } from './Recipients.tsx';
import { chipsOfDraft, savedDraftOf, useDraftSaver } from './draft.ts';
import { Results, useSendJob } from './Results.tsx';
import { Copies, copiesOf, copiesReach, NO_COPIES, type CopiesForm } from './Copies.tsx';
import { sendingNotice, useServerBooks } from './server-books.ts';
import { JobBooks } from '../HistoryBooks.tsx';
import { SendConfirm, type SendChoice } from './SendConfirm.tsx';
import { TemplatesDialog } from './Templates.tsx';
import { optedOutQuestion } from './opted-out.ts';
import { composeContent, useComposeValidation } from './useComposeValidation.ts';
import { useMergeMeasure } from './useMergeMeasure.ts';

/** What another view asks Compose to start with (reply, resend, send to group). */
export interface ComposeDraft {
  numbers?: string[];
  contactIds?: number[];
  groupIds?: number[];
  text?: string;
  /** issue 16: server books ("book" or "book::group"), chips again, never their numbers. */
  addressBooks?: string[];
}

export function Compose({ draft, credit }: { draft: ComposeDraft | null; credit: Credit | null }) {
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [groups, setGroups] = useState<Group[]>([]);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [managing, setManaging] = useState(false);
  const [replyTos, setReplyTos] = useState<string[]>([]);
  const [country, setCountry] = useState<string | undefined>(undefined);
  const [chips, setChips] = useState<Chip[]>([]);
  const [entry, setEntry] = useState('');
  const [text, setText] = useState(draft?.text ?? '');
  const [kind, setKind] = useState<ContentKind>('text');
  const [richDraft, setRichDraft] = useState<EditorReport | null>(null);
  // A restored draft's editor state, handed to the editor of its kind when it starts.
  const [editorSeed, setEditorSeed] = useState<SavedDraft['editor'] | null>(null);
  const [phoneMake, setPhoneMake] = useState<PhoneMake | ''>('Nokia');
  const [options, setOptions] = useState<SendOptions>(DEFAULT_OPTIONS);
  // issue 16: the account's server books (recipient tokens) and the Cc/Bcc of a rich send
  const books = useServerBooks();
  const [copies, setCopies] = useState<CopiesForm>(NO_COPIES);
  const [errors, setErrors] = useState<string[]>([]);
  // Issue 26: the errors shown are the form's own problems (Send found them), checked again as it changes.
  const [formChecked, setFormChecked] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [skipped, setSkipped] = useState<string | null>(null);
  const dialog = useDialog();
  const sendJob = useSendJob();
  const pastes = usePasteState();
  const resetPastes = pastes.reset;
  const rich = isRichKind(kind);
  const effectiveMake = effectivePhoneMake(kind, phoneMake);
  const merge = useMergeMeasure(chips, kind, text);
  // A book chip restored from a draft learns its reach when the account's books arrive.
  const shownChips = useMemo(
    () =>
      chips.map((c) =>
        c.kind === 'book' && c.reach === null
          ? { ...c, reach: books.find((b) => b.ref === c.ref)?.reach ?? null }
          : c,
      ),
    [chips, books],
  );
  const extraReach = rich ? copiesReach(copies, books) : 0;
  const check = useComposeValidation({
    chips: shownChips,
    entry,
    kind,
    text,
    richDraft,
    effectiveMake,
    options,
    extraReach,
    merge,
  });

  // Saving starts once the saved draft has been read (and stops while the form shows a send's result).
  const [loaded, setLoaded] = useState(false);
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    const a = api();
    // A draft handed over by another view (reply, send to group, New message) starts the form;
    // otherwise the account's saved draft comes back.
    const saved = draft ? Promise.resolve(null) : a.drafts.get().catch(() => null);
    void Promise.all([a.contacts.list(), a.groups.list(), a.templates.list(), a.settings.get(), saved]).then(
      ([c, g, t, s, d]) => {
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
        // Issue 25: chips entered while the lists were read stay (the form is new per draft: a
        // slow start used to wipe them).
        if (draft) {
          const handed = chipsOfDraft(
            {
              numbers: draft.numbers ?? [],
              contactIds: draft.contactIds ?? [],
              groupIds: draft.groupIds ?? [],
              addressBooks: draft.addressBooks ?? [],
            },
            c,
            g,
            defaultCountry,
          );
          setChips((typed) => withTyped(handed, typed));
        } else if (d) {
          setChips((typed) => withTyped(chipsOfDraft(d, c, g, defaultCountry), typed));
          setText((t) => t || d.text);
          setKind(d.kind);
          setEntry((e) => e || d.entry);
          setPhoneMake(d.phoneMake as PhoneMake | '');
          setOptions({ ...DEFAULT_OPTIONS, ...d.options });
          setCopies(d.copies ?? NO_COPIES);
          setEditorSeed(d.editor ?? null);
          setRestored(true);
        }
        setLoaded(true);
      },
      (e: unknown) => setErrors(errorMessages(e)),
    );
    a.send.permittedReplyTo().then(setReplyTos, () => setReplyTos([]));
  }, [draft, resetPastes]);
  // issue 28: contacts, groups or templates changed at another desk of the office: the suggestions follow
  useEvent('office:library', () => {
    const a = api();
    void Promise.all([a.contacts.list(), a.groups.list(), a.templates.list()]).then(
      ([c, g, t]) => {
        setContacts(c);
        setGroups(g);
        setTemplates(t);
      },
      () => undefined,
    );
  });

  // After a send the form is locked until "New message" or "Edit and send again": a second click or
  // Ctrl+Enter cannot send the same content twice (a ref: the state arrives a render later).
  const [sent, setSent] = useState(false);
  const sentRef = useRef(false);
  const editor = rich && richDraft?.kind === kind ? { editor: { kind, state: richDraft.state } } : {};
  useDraftSaver(
    savedDraftOf({ chips, entry, kind, text, phoneMake, options, copies, ...editor }),
    loaded && !sent,
  );
  const [confirming, setConfirming] = useState<SendEstimate | null>(null);
  const answerRef = useRef<(choice: SendChoice) => void>(() => {});
  const ask = (estimate: SendEstimate) =>
    new Promise<SendChoice>((resolve) => {
      answerRef.current = (choice) => {
        setConfirming(null);
        resolve(choice);
      };
      setConfirming(estimate);
    });

  const submit = useAction(async (request: SendRequest) => {
    // Before money is spent: a large send, or one the credit does not cover, asks first.
    const estimate = await api().send.estimate(request);
    // Issue 26: opted-out recipients are named before Send, not counted after it.
    const optedOut = optedOutQuestion(estimate);
    if (optedOut && !(await dialog.confirm(optedOut))) return;
    let limit: number | undefined;
    if (estimate.needsConfirm) {
      const choice = await ask(estimate);
      if (choice === null) return;
      if (choice === 'first') limit = estimate.affordableRecipients ?? undefined;
    }
    const accepted = await api().send.submit(limit !== undefined ? { ...request, limit } : request);
    sentRef.current = true;
    setSent(true);
    // Sent: no longer a draft.
    void api()
      .drafts.discard()
      .catch(() => undefined);
    sendJob.follow(accepted.job);
    if (accepted.invalid.length) setErrors(accepted.invalid.map((i) => `${i.input}: ${i.reason} (not sent)`));
    const skipped = accepted.optedOut ?? 0;
    setNotice(sendingNotice(accepted.job.recipientCount, accepted.job.extraReach));
    setSkipped(skipped > 0 ? `${plural(skipped, 'opted-out number')} skipped: never sent to.` : null);
  });

  /** "Edit and send again": the same chips (groups and names stay chips) and content, unlocked. */
  const editAgain = () => {
    sentRef.current = false;
    setSent(false);
    setNotice(null);
    setSkipped(null);
    setErrors([]);
    setFormChecked(false);
    sendJob.reset();
  };
  /** "New message" and "Discard draft": an empty form, and no saved draft. */
  const newMessage = () => {
    editAgain();
    setRestored(false);
    void api()
      .drafts.discard()
      .catch(() => undefined);
    setChips([]);
    resetPastes();
    setEntry('');
    setText('');
    setRichDraft(null);
    setEditorSeed(null);
    setKind('text');
    setOptions(DEFAULT_OPTIONS);
    setCopies(NO_COPIES);
  };

  /** Sends the form; `only`: to these chips (issue 26: the valid ones, the invalid just removed). */
  function send(only?: Chip[]) {
    if (submit.busy || sentRef.current) return;
    const to = only ?? chips;
    // Issue 15: a long paste is checked off the page's thread; sending now would leave it out.
    const checking = pastes.checking > 0;
    const found = checking
      ? [`Still checking ${pastes.checking.toLocaleString()} pasted numbers: send once they are added.`]
      : check.problems({ skipInvalid: only !== undefined });
    setErrors(found);
    // Issue 26: the form's own problems follow the form from now on (remove a chip, one goes).
    setFormChecked(!checking && found.length > 0 && only === undefined);
    setNotice(null);
    if (found.length) return;
    const content = composeContent({ kind, text, richDraft, effectiveMake, options });
    if (!content) return;
    void submit.run({
      recipients: to.flatMap((c) => (c.kind === 'number' ? [c.msisdn] : [])),
      contactIds: to.flatMap((c) => (c.kind === 'contact' ? [c.contact.id] : [])),
      groupIds: to.flatMap((c) => (c.kind === 'group' ? [c.group.id] : [])),
      addressBooks: to.flatMap((c) => (c.kind === 'book' ? [c.ref] : [])),
      ...(rich && copiesOf(copies) ? { copies: copiesOf(copies) } : {}),
      content,
    });
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

  const contentBlocked = check.contentIssues.length > 0;
  const { job } = sendJob;
  const saveTemplate = async () => {
    const name = await dialog.askText({
      title: 'Save as template',
      label: 'Template name',
      confirmLabel: 'Save',
      required: 'A template needs a name.',
    });
    if (!name) return;
    api()
      .templates.create({ name, text })
      .then(
        (t) => setTemplates((ts) => [...ts, t]),
        (e: unknown) => setErrors(errorMessages(e)),
      );
  };
  // A failed submit lists the gateway's or the service's problems as the form's own are listed.
  const shownErrors =
    formChecked && !sent
      ? check.problems()
      : errors.length
        ? errors
        : submit.error
          ? errorMessages(submit.error)
          : [];

  return (
    <section className="view compose" aria-labelledby="compose-title" onKeyDown={onTextKey}>
      <div className="row compose-head">
        <h1 id="compose-title">Compose</h1>
        {restored && !sent ? (
          <span className="muted small" data-testid="draft-restored">
            Draft restored
          </span>
        ) : null}
        {!sent && (chips.length > 0 || text !== '' || entry !== '' || rich) ? (
          <button type="button" className="link" onClick={newMessage}>
            Discard draft
          </button>
        ) : null}
      </div>
      <Recipients
        chips={shownChips}
        setChips={setChips}
        entry={entry}
        setEntry={setEntry}
        contacts={contacts}
        groups={groups}
        country={country}
        books={books}
        pastes={pastes}
        onSendValid={sent ? undefined : (valid) => send(valid)}
      />
      <ContentChoice
        kind={kind}
        onKind={(k) => {
          setKind(k);
          setRichDraft(null);
          setEditorSeed(null);
          setErrors([]);
          setFormChecked(false);
          submit.clearError();
        }}
        phoneMake={phoneMake}
        onPhoneMake={setPhoneMake}
      />
      {rich ? (
        <RichContent
          kind={kind}
          richDraft={richDraft}
          onDraft={setRichDraft}
          saved={editorSeed?.kind === kind ? editorSeed.state : undefined}
        />
      ) : (
        <MessageBox
          text={text}
          onText={setText}
          templates={templates}
          analysis={check.analysis}
          tooLong={check.tooLong}
          costMessages={check.costMessages}
          credit={credit}
          merge={merge}
          onManageTemplates={() => setManaging(true)}
          delivery={options.delivery}
        />
      )}
      <Options options={options} onChange={setOptions} replyTos={replyTos} rich={rich} kind={kind} />
      {rich ? <Copies value={copies} onChange={setCopies} books={books} /> : null}

      {contentBlocked ? (
        <div
          className="content-problems"
          id="content-problems"
          data-testid="content-problems"
          aria-live="polite"
        >
          <strong>Not ready to send:</strong>
          <ul>
            {check.contentIssues.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <ErrorText
        error={shownErrors.length ? shownErrors : null}
        prefix="Nothing was sent:"
        testId="compose-errors"
      />

      <div className="row">
        {sent ? (
          <>
            <button type="button" className="primary" onClick={newMessage}>
              New message
            </button>
            <button type="button" onClick={editAgain}>
              Edit and send again
            </button>
          </>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => send()}
            disabled={submit.busy || contentBlocked}
            aria-describedby={contentBlocked ? 'content-problems' : undefined}
            title="Ctrl+Enter"
          >
            {submit.busy ? 'Sending…' : 'Send'}
          </button>
        )}
        <button type="button" onClick={() => void saveTemplate()} disabled={!text || rich}>
          Save as template
        </button>
        {/* Issue 25: once the job is known, its outcome headline below says what happened. */}
        {notice && !job ? <span className="muted">{notice}</span> : null}
      </div>
      {sent && skipped ? (
        <p className="muted small" data-testid="opted-out-skipped">
          {skipped}
        </p>
      ) : null}
      {sent ? (
        <p className="muted small" data-testid="sent-lock">
          To send this again, choose “Edit and send again”.
        </p>
      ) : null}
      {managing ? (
        <TemplatesDialog
          templates={templates}
          onChange={setTemplates}
          onClose={() => setManaging(false)}
          initialText={rich ? '' : text}
        />
      ) : null}
      {confirming ? <SendConfirm estimate={confirming} onAnswer={(c) => answerRef.current(c)} /> : null}

      <JobBooks batches={sendJob.books} />
      {job ? <Results {...sendJob} job={job} onResent={sendJob.follow} /> : null}
    </section>
  );
}

/** The chips a draft starts with, then those entered while it was read (a number once). */
function withTyped(start: Chip[], typed: Chip[]): Chip[] {
  const numbers = new Set(start.flatMap((c) => (c.kind === 'number' ? [c.msisdn] : [])));
  return [...start, ...typed.filter((c) => c.kind !== 'number' || !numbers.has(c.msisdn))];
}

/** The sentences of a thrown value: its problems when it lists them, else its message. */
function errorMessages(e: unknown): string[] {
  const { message, problems } = errorParts(e);
  return problems.length ? problems : [message];
}
