// Small shared pieces of the vCard, vCalendar, WAP push, SI, MMS and PDU editors.
import { useEffect, useId, useRef, useState } from 'react';
import { fileToPicked } from './file-drafts.ts';
import type { PickedFile } from './file-drafts.ts';
import { DRAFT_FILE_MAX } from './editor-state.ts';
import type { ContentDraft, EditorReport, EditorState } from './types.ts';

/**
 * Reports the draft (its ContentDraft fields only) and the editor's state on mount and whenever either
 * changes identity: both are memoised by the editor. Unlike use-draft.ts, nothing is serialised here
 * (a WAP push or MMS upload's hex can be megabytes).
 */
export function useReportDraft(
  draft: ContentDraft,
  state: EditorState,
  onChange: (report: EditorReport) => void,
): void {
  const ref = useRef(onChange);
  useEffect(() => {
    ref.current = onChange;
  });
  useEffect(() => {
    const { kind, text, fields, problems, summary } = draft;
    ref.current({ kind, text, fields, problems, summary, state });
  }, [draft, state]);
}

/** Upper bound of what an editor reads into memory (the gateway composes at most 1 MB ZIPs). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;

/** A file input that reads the chosen file into name + hex. */
export function FileField(props: {
  label: string;
  accept?: string;
  file: PickedFile | null;
  onFile(file: PickedFile | null): void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="file"
        {...(props.accept !== undefined ? { accept: props.accept } : {})}
        onChange={(e) => {
          const f = e.target.files?.[0];
          setError(null);
          if (!f) {
            props.onFile(null);
            return;
          }
          if (f.size > MAX_UPLOAD_BYTES) {
            setError(`${f.name} is ${f.size} bytes; at most ${MAX_UPLOAD_BYTES} bytes can be sent.`);
            props.onFile(null);
            return;
          }
          f.arrayBuffer().then(
            (buf) => props.onFile(fileToPicked(f.name, new Uint8Array(buf))),
            (err: unknown) => setError(`${f.name} could not be read: ${String(err)}`),
          );
        }}
      />
      {props.file ? (
        <span className="muted small">
          {' '}
          {props.file.name}, {props.file.size} bytes
        </span>
      ) : null}
      {error ? (
        <p role="alert" className="error small">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** "Library file" or "Upload a file", as a radio group. */
export function SourceChoice(props: {
  value: 'library' | 'file';
  onChange(v: 'library' | 'file'): void;
  uploadLabel: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend>Source</legend>
      <label className="check">
        <input
          type="radio"
          name={name}
          checked={props.value === 'library'}
          onChange={() => props.onChange('library')}
        />{' '}
        Library file
      </label>
      <label className="check">
        <input
          type="radio"
          name={name}
          checked={props.value === 'file'}
          onChange={() => props.onChange('file')}
        />{' '}
        {props.uploadLabel}
      </label>
    </fieldset>
  );
}

/** A text input with a character counter against a limit. */
export function LimitedText(props: { label: string; value: string; max: number; onChange(v: string): void }) {
  const n = [...props.value].length;
  return (
    <label>
      {props.label}
      <input
        type="text"
        value={props.value}
        aria-invalid={n > props.max}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <span className={n > props.max ? 'error small' : 'muted small'}>
        {n}/{props.max} characters
      </span>
    </label>
  );
}

/** Said when a restored draft named a file too large to keep in it (editor-state.ts DRAFT_FILE_MAX). */
export function FileNotKept({ name }: { name: string | null }) {
  return name ? (
    <p className="warn-text small" role="note" data-testid="file-not-kept">
      “{name}” was not kept in the draft (files over {DRAFT_FILE_MAX / 1024} KiB are not): choose it again.
    </p>
  ) : null;
}
