// Message templates in Compose (issue 26): the picker inserts a template at the cursor through the
// textarea's native edit path (document.execCommand('insertText')), so Ctrl+Z takes it back as it
// would a typed word; "Manage templates" opens a dialog to create, edit, rename and delete them
// (a delete can be undone while the dialog is open: the template is stored again).
import { useState, type RefObject } from 'react';
import type { Template } from '../../../preload/api.ts';
import { api } from '../../api.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorText } from '../../components/ErrorText.tsx';
import { useAction } from '../../hooks/useAction.ts';
import { AccountScope } from '../../components/AccountScope.tsx';

/**
 * Inserts `text` at the textarea's cursor (replacing its selection) as an edit of the user's own:
 * execCommand('insertText') goes through the browser's editing path, so it fires the input event
 * React listens to and lands on the textarea's undo stack. The selection a blur left is kept.
 */
export function insertAtCursor(box: HTMLTextAreaElement, text: string): void {
  const { selectionStart, selectionEnd } = box;
  box.focus();
  box.setSelectionRange(selectionStart, selectionEnd);
  // Deprecated in name only: it is the one way to edit a textarea with the browser's undo (no
  // library offers another). Where it is refused, setRangeText + an input event still inserts.
  if (!document.execCommand('insertText', false, text)) {
    box.setRangeText(text, selectionStart, selectionEnd, 'end');
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

export function TemplatePicker({
  templates,
  box,
  onManage,
}: {
  templates: Template[];
  box: RefObject<HTMLTextAreaElement | null>;
  onManage: () => void;
}) {
  return (
    <div className="row template-tools">
      {templates.length ? (
        <select
          aria-label="Insert template"
          value=""
          onChange={(e) => {
            const t = templates.find((x) => String(x.id) === e.target.value);
            if (t && box.current) insertAtCursor(box.current, t.text);
          }}
        >
          <option value="">Insert template…</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      ) : null}
      <button type="button" className="link" onClick={onManage}>
        Manage templates
      </button>
    </div>
  );
}

/** What the form of the dialog edits: a stored template, or a new one (id null). */
interface Editing {
  id: number | null;
  name: string;
  text: string;
}

export function TemplatesDialog({
  templates,
  onChange,
  onClose,
  initialText,
}: {
  templates: Template[];
  /** The list after a change (Compose's picker follows it). */
  onChange: (templates: Template[]) => void;
  onClose: () => void;
  /** The message being written: offered as a new template's text. */
  initialText: string;
}) {
  const first = templates[0];
  const [editing, setEditing] = useState<Editing>(
    first ? { ...first } : { id: null, name: '', text: initialText },
  );
  const [status, setStatus] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<Template | null>(null);
  const reload = async () => onChange(await api().templates.list());

  const save = useAction(async () => {
    const { id, name, text } = editing;
    const t =
      id === null
        ? await api().templates.create({ name, text })
        : await api().templates.update({ id, name, text });
    await reload();
    setEditing({ ...t });
    setDeleted(null);
    setStatus(id === null ? `Created “${t.name}”.` : `Saved “${t.name}”.`);
  });
  const remove = useAction(async (t: Template) => {
    await api().templates.delete(t.id);
    const rest = templates.filter((x) => x.id !== t.id);
    await reload();
    setDeleted(t);
    setStatus(`Deleted “${t.name}”.`);
    const next = rest[0];
    setEditing(next ? { ...next } : { id: null, name: '', text: '' });
  });
  const undo = useAction(async (t: Template) => {
    const back = await api().templates.create({ name: t.name, text: t.text });
    await reload();
    setDeleted(null);
    setEditing({ ...back });
    setStatus(`“${back.name}” is back.`);
  });
  const error = save.error ?? remove.error ?? undo.error;
  const current = templates.find((t) => t.id === editing.id) ?? null;

  return (
    <Dialog title="Templates" onCancel={onClose} className="templates-dialog">
      <AccountScope scope="desk" what="Templates" />
      <div className="templates-manage">
        <ul className="templates-list" aria-label="Templates">
          {templates.map((t) => (
            <li key={t.id}>
              <button
                type="button"
                className={t.id === editing.id ? 'link current' : 'link'}
                aria-current={t.id === editing.id || undefined}
                onClick={() => {
                  setEditing({ ...t });
                  setStatus(null);
                }}
              >
                {t.name}
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="link"
              onClick={() => {
                setEditing({ id: null, name: '', text: initialText });
                setStatus(null);
              }}
            >
              + New template
            </button>
          </li>
        </ul>
        <div className="templates-form">
          <label htmlFor="template-name">Name</label>
          <input
            id="template-name"
            value={editing.name}
            onChange={(e) => setEditing({ ...editing, name: e.target.value })}
          />
          <label htmlFor="template-text">Text</label>
          <textarea
            id="template-text"
            rows={5}
            value={editing.text}
            onChange={(e) => setEditing({ ...editing, text: e.target.value })}
          />
        </div>
      </div>
      <ErrorText error={error} />
      {status ? (
        <p className="muted small" role="status" data-testid="templates-status">
          {status}{' '}
          {deleted ? (
            <button type="button" className="link" onClick={() => void undo.run(deleted)}>
              Undo
            </button>
          ) : null}
        </p>
      ) : null}
      <div className="row dialog-buttons">
        <button type="button" className="primary" onClick={() => void save.run()} disabled={save.busy}>
          {editing.id === null ? 'Create template' : 'Save changes'}
        </button>
        {current ? (
          <button type="button" className="danger" onClick={() => void remove.run(current)}>
            Delete
          </button>
        ) : null}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
