// MMS notification: a library MMS (80000–89999) or an upload of a .mms, or of a .zip of parts
// (text, images, SMIL) that the gateway composes; DisableRepurposing, DisableWalledGardenRule and
// AddSMIL under "Advanced".
import { useMemo, useState } from 'react';
import { selectFileRoute } from '../../../protocol/content-selection.ts';
import { ADD_SMIL_VALUES } from '../../../protocol/limits.ts';
import { FileField, FileNotKept, LimitedText, SourceChoice, useReportDraft } from './editor-kit.tsx';
import { fileForState, fileOfState, oneOf, restoreForm } from './editor-state.ts';
import { LibraryPicker } from './LibraryPicker.tsx';
import { mmsDraft } from './file-drafts.ts';
import { MMS_MESSAGE_MAX } from './rich-drafts.ts';
import type { MmsForm } from './file-drafts.ts';
import type { ContentEditorProps } from './types.ts';

export function MmsEditor({ onChange, saved }: ContentEditorProps) {
  const [start] = useState(() => {
    const { file, notKept } = fileOfState(saved?.['file']);
    const form = restoreForm<MmsForm>(
      {
        source: 'library',
        library: '',
        file: null,
        subject: '',
        disableRepurposing: false,
        disableWalledGardenRule: false,
        addSmil: '0',
      },
      saved,
      { source: oneOf('library', 'file'), addSmil: oneOf(...ADD_SMIL_VALUES) },
    );
    return { form: { ...form, file }, notKept };
  });
  const [form, setForm] = useState<MmsForm>(start.form);
  const [notKept, setNotKept] = useState(start.notKept);
  const set = (changes: Partial<MmsForm>) => setForm((f) => ({ ...f, ...changes }));
  const draft = useMemo(() => mmsDraft(form), [form]);
  const state = useMemo(() => ({ ...form, file: fileForState(form.file) }), [form]);
  useReportDraft(draft, state, onChange);
  const selection = form.source === 'file' && form.file ? selectFileRoute(form.file.name) : null;

  return (
    <div className="rich-editor" role="group" aria-label="MMS notification">
      <SourceChoice
        value={form.source}
        onChange={(source) => set({ source })}
        uploadLabel="Upload a .mms or a .zip of parts"
      />
      {form.source === 'library' ? (
        <LibraryPicker
          kinds={['mms']}
          library="mmsFile"
          value={form.library}
          onChange={(library) => set({ library })}
        />
      ) : (
        <>
          <FileField
            label="MMS file"
            accept=".mms,.zip"
            file={form.file}
            onFile={(file) => {
              setNotKept(null);
              set({ file });
            }}
          />
          <FileNotKept name={notKept} />
          <p className="muted small">
            A .zip holds the parts (text, images, a SMIL layout); the gateway composes the MMS from them and
            keeps it in your private library.
          </p>
        </>
      )}
      {form.source === 'file' && form.file?.zip && form.file.zip.parts.length > 0 ? (
        <ul className="small" aria-label="Parts of the ZIP">
          {form.file.zip.parts.map((p) => (
            <li key={p.name}>
              {p.name} — {p.role}, {p.size} bytes
            </li>
          ))}
        </ul>
      ) : null}
      {selection && selection.route !== 'mms' ? (
        <p className="error small" data-testid="content-selection">
          Not an MMS presentation: {selection.reason}.
        </p>
      ) : null}
      <LimitedText
        label="Subject"
        value={form.subject}
        max={MMS_MESSAGE_MAX}
        onChange={(subject) => set({ subject })}
      />
      <details>
        <summary>Advanced</summary>
        <div className="row wrap">
          <label className="check">
            <input
              type="checkbox"
              checked={form.disableRepurposing}
              onChange={(e) => set({ disableRepurposing: e.target.checked })}
            />{' '}
            Do not adapt the content to each handset (DisableRepurposing)
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={form.disableWalledGardenRule}
              onChange={(e) => set({ disableWalledGardenRule: e.target.checked })}
            />{' '}
            Send the MMS notification to walled-garden networks too (DisableWalledGardenRule)
          </label>
          <label>
            SMIL layout (AddSMIL)
            <select
              value={form.addSmil}
              onChange={(e) => set({ addSmil: e.target.value as MmsForm['addSmil'] })}
            >
              <option value="0">Handset default</option>
              <option value="1">Add a SMIL layout</option>
              <option value="2">Do not add SMIL</option>
            </select>
          </label>
        </div>
      </details>
    </div>
  );
}
