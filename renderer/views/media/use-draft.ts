// Reporting an editor's draft and state to Compose: on mount and whenever either changes, through the
// latest onChange (so an inline callback in the parent causes no loop). Only ContentDraft's fields
// and the state go out (a builder's preview or explanation stays in the editor).
import { useEffect, useRef } from 'react';
import type { ContentDraft, EditorReport, EditorState } from './types.ts';

export function useReportDraft(
  draft: ContentDraft,
  state: EditorState,
  onChange: (report: EditorReport) => void,
): void {
  const ref = useRef(onChange);
  useEffect(() => {
    ref.current = onChange;
  });
  const { kind, text, fields, problems, summary } = draft;
  const key = JSON.stringify({ kind, text, fields, problems, summary, state });
  useEffect(() => {
    ref.current(JSON.parse(key) as EditorReport);
  }, [key]);
}
