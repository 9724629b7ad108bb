// The app in a real process for the crash test: signs in to the gateway given on the command line,
// submits a 5,000-recipient send and prints one JSON line per answered batch; the parent kills it
// with SIGKILL in the middle.
import { createMessengerApp } from '../../../main/services/app.ts';

const [dataDir, url, username] = process.argv.slice(2);
const pin = process.env.MESSENGER_PIN;
if (!dataDir || !url || !username || !pin)
  throw new Error('usage: crash-child.ts <dataDir> <url> <username> (MESSENGER_PIN)');
const app = await createMessengerApp({ dataDir, log: () => {} });
await app.api.accounts.signIn({ username, pin, primaryUrl: url, rememberPin: false });
app.events.on('outbox:progress', (p) => {
  process.stdout.write(`${JSON.stringify({ jobId: p.jobId, seq: p.batch.seq, state: p.batch.state })}\n`);
});
// 5,000 distinct valid UK mobile numbers (07911 100000-104999).
const recipients = Array.from({ length: 5000 }, (_, i) => `447911${100000 + i}`);
const { job } = await app.api.send.submit({ recipients, content: { kind: 'text', text: 'crash test' } });
process.stdout.write(`${JSON.stringify({ journaled: job.id, batches: job.batchCount })}\n`);
setInterval(() => {}, 1000);
