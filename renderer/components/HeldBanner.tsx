// Issue 25: replies the app received but could not store yet (a full disk), said in words: why,
// what is kept where, and what happens next ('inbox:held', main/services/reply-intake.ts).
import { useState } from 'react';
import type { ReplyHold } from '../../preload/api.ts';
import { useEvent } from '../api.ts';

function kib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export function HeldBanner() {
  const [hold, setHold] = useState<ReplyHold | null>(null);
  useEvent('inbox:held', (h) => setHold(h.held ? h : null));
  if (!hold) return null;
  const reason = hold.reason ?? 'the disk is full';
  return (
    <div role="alert" className="banner error" data-testid="replies-held">
      <strong>Replies cannot be stored: {reason}.</strong>{' '}
      {hold.answers > 0 ? (
        <>
          {hold.answers === 1 ? 'One answer' : `${hold.answers} answers`} received from the gateway{' '}
          {hold.answers === 1 ? 'is' : 'are'} kept
          {hold.inMemoryBytes > 0
            ? ` (${kib(hold.inMemoryBytes)} of it in memory only: keep Messenger running until there is room)`
            : ' on disk'}{' '}
          and will be stored as soon as there is room.{' '}
        </>
      ) : null}
      No new messages are collected until then: the gateway keeps them. Free some space on this disk.
    </div>
  );
}
