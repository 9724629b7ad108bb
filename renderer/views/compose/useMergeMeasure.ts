// Compose's counter for a mail-merge text (issue 12): the text filled per recipient is measured in
// the main process (mailmerge.measure: the address book is there, and 5,000 recipients are one call),
// 250 ms after the last change of the text or the recipients. Null while the text has no "{", for a
// rich kind, or with no recipient; an answer that arrives after a newer question is dropped.
import { useEffect, useRef, useState } from 'react';
import type { ContentKind, MergeMeasure } from '../../../domain/index.ts';
import { api } from '../../api.ts';
import type { Chip } from './Recipients.tsx';

export const MERGE_MEASURE_DELAY_MS = 250;

export function useMergeMeasure(chips: Chip[], kind: ContentKind, text: string): MergeMeasure | null {
  const [measure, setMeasure] = useState<MergeMeasure | null>(null);
  const asked = useRef(0);
  const wanted = (kind === 'text' || kind === 'flash') && text.includes('{') && chips.length > 0;
  const recipients = chips.flatMap((c) => (c.kind === 'number' ? [c.msisdn] : []));
  const contactIds = chips.flatMap((c) => (c.kind === 'contact' ? [c.contact.id] : []));
  const groupIds = chips.flatMap((c) => (c.kind === 'group' ? [c.group.id] : []));
  const key = wanted ? JSON.stringify([kind, text, recipients, contactIds, groupIds]) : '';

  useEffect(() => {
    const n = ++asked.current;
    if (key === '') return undefined;
    const timer = setTimeout(() => {
      api()
        .mailmerge.measure({
          recipients,
          contactIds,
          groupIds,
          content: { kind: kind === 'flash' ? 'flash' : 'text', text },
        })
        .then(
          (m) => {
            if (n === asked.current) setMeasure(m.merged ? m : null);
          },
          () => {
            if (n === asked.current) setMeasure(null);
          },
        );
    }, MERGE_MEASURE_DELAY_MS);
    return () => clearTimeout(timer);
    // `key` stands for the values read inside.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  // The last answer stays shown while a newer question waits (no flicker as the user types).
  return wanted ? measure : null;
}
