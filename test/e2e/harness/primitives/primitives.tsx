// The renderer primitives' harness page: the real DialogProvider with a confirm and a text question
// asked from click handlers, as the views ask them (the answer is written where the test reads it),
// a useAction whose run the test finishes through window.finishSave, and a useThrottledRead whose
// reads the test answers through window.reads (issue 27).
import { useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DialogProvider, useDialog } from '../../../../renderer/components/Dialog.tsx';
import { ErrorText } from '../../../../renderer/components/ErrorText.tsx';
import { useAction } from '../../../../renderer/hooks/useAction.ts';
import { useThrottledRead } from '../../../../renderer/hooks/useThrottledRead.ts';

declare global {
  interface Window {
    finishSave?: (ok: boolean) => void;
    /** The answers of the reads started, in order. */
    reads?: ((value: string) => void)[];
  }
}

/** Not disabled while busy, on purpose: the hook itself must refuse a second run. */
function SaveAction() {
  const [calls, setCalls] = useState(0);
  const save = useAction(async () => {
    setCalls((n) => n + 1);
    await new Promise<void>((resolve, reject) => {
      window.finishSave = (ok) =>
        ok
          ? resolve()
          : reject(
              Object.assign(new Error('Not saved.'), {
                problems: [{ field: 'Name', message: 'Name is too long.' }],
              }),
            );
    });
  });
  return (
    <div className="row">
      <button type="button" onClick={() => void save.run()}>
        {save.busy ? 'Saving…' : 'Save'}
      </button>
      <output data-testid="calls">{calls}</output>
      <ErrorText error={save.error} />
    </div>
  );
}

/** A throttled read the test answers: "Read now" is load(), "Event" is soon(). */
function ThrottledProbe() {
  const [started, setStarted] = useState(0);
  const read = useCallback(
    () =>
      new Promise<string>((resolve) => {
        (window.reads ??= []).push(resolve);
        setStarted((n) => n + 1);
      }),
    [],
  );
  const { data, load, soon } = useThrottledRead(read);
  return (
    <div className="row">
      <button type="button" onClick={load}>
        Read now
      </button>
      <button type="button" onClick={soon}>
        Event
      </button>
      <output data-testid="read-data">{data ?? 'none'}</output>
      <output data-testid="reads-started">{started}</output>
    </div>
  );
}

function Page() {
  const dialog = useDialog();
  const [answer, setAnswer] = useState('none');
  return (
    <main className="content">
      <h1>Primitives harness</h1>
      <div className="row">
        <button
          type="button"
          className="danger"
          onClick={() =>
            void dialog
              .confirm({
                title: 'Delete Alice Archer?',
                message: 'The contact is removed from every group.',
                confirmLabel: 'Delete',
                danger: true,
              })
              .then((yes) => setAnswer(`confirm:${yes}`))
          }
        >
          Delete contact
        </button>
        <button
          type="button"
          onClick={() =>
            void dialog
              .askText({
                title: 'Rename group Friends',
                label: 'Group name',
                initial: 'Friends',
                confirmLabel: 'Rename',
                required: 'A group needs a name.',
                validate: (v) => (/\d/.test(v) ? 'No digits in a group name.' : null),
              })
              .then((v) => setAnswer(`text:${v === null ? 'null' : v}`))
          }
        >
          Rename group
        </button>
        <input aria-label="Outside field" />
      </div>
      <output data-testid="answer">{answer}</output>
      <SaveAction />
      <ThrottledProbe />
    </main>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <DialogProvider>
      <Page />
    </DialogProvider>,
  );
