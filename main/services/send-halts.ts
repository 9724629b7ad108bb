// Issue 25 item 4: a send whose sending loop stopped because the journal took no write (a full
// disk, an I/O error). Its claimed batch stays 'sending' in the journal (nothing more could be
// written) until the next start makes it unknown; until then the user is told here, not only in the
// log: 'outbox:halted' at once, and outbox.halts() for a view opened later. Kept in memory on
// purpose: the journal is what could not be written.
import type { Emit } from './app-options.ts';
import type { MessengerApi, SendHalt } from '../../preload/api.ts';

export function createSendHalts(deps: { emit: Emit; now?: () => number }) {
  const halts = new Map<number, SendHalt>();
  const api: Pick<MessengerApi['outbox'], 'halts'> = {
    halts: async () => [...halts.values()],
  };
  return {
    api,
    /** The loop of `jobId` stopped with `reason`. */
    record(jobId: number, reason: string): void {
      const halt: SendHalt = { jobId, reason, at: (deps.now ?? Date.now)() };
      halts.set(jobId, halt);
      deps.emit('outbox:halted', halt);
    },
    /** The job is being sent again (Continue sending): no longer stopped. */
    clear(jobId: number): void {
      halts.delete(jobId);
    },
  };
}
