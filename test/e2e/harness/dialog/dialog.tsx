// The Dialog's harness page: the real DialogProvider with a confirm and a text question asked from
// click handlers, as the views ask them; the answer is written where the test reads it.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DialogProvider, useDialog } from '../../../../renderer/components/Dialog.tsx';

function Page() {
  const dialog = useDialog();
  const [answer, setAnswer] = useState('none');
  return (
    <main className="content">
      <h1>Dialog harness</h1>
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
