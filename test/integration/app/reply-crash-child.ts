// The app in a real process for the reply crash test (issue 25): signs in to the gateway given on
// the command line and polls until nothing more comes. With KILL_AT=n it stops, mid-transaction,
// at its n-th inbound store (ConversationsRepo.storeInbound, which the old poller called while
// reading an answer and the new one calls once an answer is on disk), says "kill-point" and waits
// there for the parent's SIGKILL. Without it, it prints "done <received>" and exits.
import { writeSync } from 'node:fs';
import { createMessengerApp } from '../../../main/services/app.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';

const [dataDir, url, username] = process.argv.slice(2);
const pin = process.env.MESSENGER_PIN;
if (!dataDir || !url || !username || !pin)
  throw new Error('usage: reply-crash-child.ts <dataDir> <url> <username> (MESSENGER_PIN, KILL_AT)');
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

const app = await createMessengerApp({ dataDir, env: {}, log: () => {} });
await app.api.accounts.signIn({ username, pin, primaryUrl: url, rememberPin: false });
let received = 0;
for (;;) {
  const r = await app.api.inbox.pollNow();
  received += r.received;
  if (r.received === 0) break;
}
await app.close();
writeSync(1, `done ${received}\n`);
