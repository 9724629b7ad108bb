// `messenger inbox` in a real process for the CLI reply crash test (issue 25): main/cli.ts's run(),
// with KILL_AT=n stopping mid-transaction at its n-th inbound store (as reply-crash-child.ts does
// for the app), saying "kill-point" on stdout and waiting there for the parent's SIGKILL.
import { writeSync } from 'node:fs';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { run } from '../../../main/cli.ts';

const killAt = Number(process.env.KILL_AT ?? '0');
let calls = 0;
const storeInbound = ConversationsRepo.prototype.storeInbound;
ConversationsRepo.prototype.storeInbound = function (this: ConversationsRepo, ...args) {
  if (++calls === killAt) {
    writeSync(1, 'kill-point\n');
    // Blocks this thread (no timer, no I/O) until the parent's SIGKILL arrives.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
  }
  return storeInbound.apply(this, args);
};

await run();
