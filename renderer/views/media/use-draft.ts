// Reporting an editor's draft to Compose: on mount and whenever the draft's content changes,
// through the latest onChange (so an inline callback in the parent causes no loop).
import { useEffect, useRef } from 'react';
import type { ContentDraft } from './types.ts';

export function useReportDraft(draft: ContentDraft, onChange: (d: ContentDraft) => void): void {
  const ref = useRef(onChange);
  useEffect(() => {
    ref.current = onChange;
  });
  const key = JSON.stringify(draft);
  useEffect(() => {
    ref.current(JSON.parse(key) as ContentDraft);
  }, [key]);
}
