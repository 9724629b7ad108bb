// WAP push of a file: a library file (80000–89999) or an upload (WAPPushFileName1/Data1, name of at
// most 50 characters). Spec 2.4 content selection decides what belongs here: single images, audio,
// video and .jar files; an MMS presentation goes as an MMS notification, a .jad through si-href.
import { useMemo, useState } from 'react';
import { selectFileRoute } from '../../../protocol/content-selection.ts';
import { FileField, FileNotKept, LimitedText, SourceChoice, useReportDraft } from './editor-kit.tsx';
import { fileForState, fileOfState, oneOf, restoreForm } from './editor-state.ts';
import { LibraryPicker } from './LibraryPicker.tsx';
import { wapPushDraft } from './file-drafts.ts';
import { MMS_MESSAGE_MAX } from './rich-drafts.ts';
import type { WapPushForm } from './file-drafts.ts';
import type { ContentEditorProps } from './types.ts';

export function WapPushEditor({ onChange, saved }: ContentEditorProps) {
  const [start] = useState(() => {
    const { file, notKept } = fileOfState(saved?.['file']);
    const form = restoreForm<WapPushForm>(
      { source: 'library', library: '', file: null, message: '', contentType: '' },
      saved,
      { source: oneOf('library', 'file') },
    );
    return { form: { ...form, file }, notKept };
  });
  const [form, setForm] = useState<WapPushForm>(start.form);
  const [notKept, setNotKept] = useState(start.notKept);
  const set = (changes: Partial<WapPushForm>) => setForm((f) => ({ ...f, ...changes }));
  const draft = useMemo(() => wapPushDraft(form), [form]);
  const state = useMemo(() => ({ ...form, file: fileForState(form.file) }), [form]);
  useReportDraft(draft, state, onChange);
  const selection = form.source === 'file' && form.file ? selectFileRoute(form.file.name) : null;

  return (
    <div className="rich-editor" role="group" aria-label="WAP push file">
      <SourceChoice value={form.source} onChange={(source) => set({ source })} uploadLabel="Upload a file" />
      {form.source === 'library' ? (
        <LibraryPicker
          kinds={['wapPush']}
          library="wapFile"
          value={form.library}
          onChange={(library) => set({ library })}
        />
      ) : (
        <>
          <FileField
            label="File"
            file={form.file}
            onFile={(file) => {
              setNotKept(null);
              set({ file });
            }}
          />
          <FileNotKept name={notKept} />
          <label>
            Content type (optional)
            <input
              type="text"
              value={form.contentType ?? ''}
              placeholder="from the file name, e.g. image/png"
              onChange={(e) => set({ contentType: e.target.value })}
            />
          </label>
        </>
      )}
      {selection ? (
        <p
          className={selection.route === 'wapPush' ? 'muted small' : 'error small'}
          data-testid="content-selection"
        >
          {selection.route === 'wapPush' ? '' : 'Not a WAP push file: '}
          {selection.reason}.
        </p>
      ) : null}
      <LimitedText
        label="Text shown with the push"
        value={form.message}
        max={MMS_MESSAGE_MAX}
        onChange={(message) => set({ message })}
      />
    </div>
  );
}
