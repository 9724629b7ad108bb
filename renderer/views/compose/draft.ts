// Compose's draft kept per account (issue 12): the form as a SavedDraft, the chips a saved draft
// becomes again (contacts and groups stay chips), and the saver that writes it a moment after the
// last change and when Compose closes (navigation), so nothing typed is lost.
import { useEffect, useRef } from 'react';
import type { Contact, Group, SavedDraft } from '../../../domain/index.ts';
import { api } from '../../api.ts';
import { chipKey, makeNumberChip, type Chip } from './Recipients.tsx';

export function savedDraftOf(
  form: Omit<SavedDraft, 'numbers' | 'contactIds' | 'groupIds'> & { chips: Chip[] },
): SavedDraft {
  const { chips, ...rest } = form;
  return {
    numbers: chips.flatMap((c) => (c.kind === 'number' || c.kind === 'invalid' ? [c.input] : [])),
    contactIds: chips.flatMap((c) => (c.kind === 'contact' ? [c.contact.id] : [])),
    groupIds: chips.flatMap((c) => (c.kind === 'group' ? [c.group.id] : [])),
    // issue 16: server book chips and the Cc/Bcc
    addressBooks: chips.flatMap((c) => (c.kind === 'book' ? [c.ref] : [])),
    ...rest,
  };
}

export function isEmptyDraft(d: SavedDraft): boolean {
  return (
    d.numbers.length + d.contactIds.length + d.groupIds.length + (d.addressBooks?.length ?? 0) === 0 &&
    d.text === '' &&
    d.entry === '' &&
    !Object.values(d.copies ?? {}).some((v) => v !== '') &&
    d.editor === undefined
  );
}

export function chipsOfDraft(
  d: Pick<SavedDraft, 'numbers' | 'contactIds' | 'groupIds' | 'addressBooks'>,
  contacts: Contact[],
  groups: Group[],
  country: string | undefined,
): Chip[] {
  const out: Chip[] = [];
  for (const id of d.contactIds) {
    const contact = contacts.find((x) => x.id === id);
    if (contact) out.push({ kind: 'contact', key: chipKey(), contact });
  }
  for (const id of d.groupIds) {
    const group = groups.find((x) => x.id === id);
    if (group) out.push({ kind: 'group', key: chipKey(), group });
  }
  for (const n of d.numbers) out.push(makeNumberChip(n, country));
  // Their reach comes with the account's server books (Compose).
  for (const ref of d.addressBooks ?? []) out.push({ kind: 'book', key: chipKey(), ref, reach: null });
  return out;
}

/**
 * Saves `draft` 400 ms after its last change and on unmount, while `enabled` (the saved draft has
 * been read, and the form is not the locked result of a send). An empty form deletes the draft.
 */
export function useDraftSaver(draft: SavedDraft, enabled: boolean): void {
  const json = JSON.stringify(draft);
  const last = useRef<string | null>(null);
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (!enabled) {
      pending.current = null;
      // The form as it is when saving starts (a restored draft) is not written back.
      last.current = null;
      return undefined;
    }
    if (last.current === null) {
      last.current = json;
      return undefined;
    }
    if (json === last.current) return undefined;
    pending.current = json;
    const timer = setTimeout(() => flush(), 400);
    return () => clearTimeout(timer);
  }, [json, enabled]);

  function flush(): void {
    const value = pending.current;
    if (value === null) return;
    pending.current = null;
    last.current = value;
    const d = JSON.parse(value) as SavedDraft;
    void (isEmptyDraft(d) ? api().drafts.discard() : api().drafts.save(d)).catch(() => undefined);
  }
  const flushRef = useRef(flush);
  useEffect(() => {
    flushRef.current = flush;
  });
  useEffect(() => () => flushRef.current(), []);
}
