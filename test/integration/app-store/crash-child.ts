// A real process for the crash test: journals a send, records the first batch's answer, claims
// the second batch ('sending') and then waits to be killed with SIGKILL, mid-send.
import { openAppStore } from '../../../main/store/app-store.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: crash-child.ts <db file>');
const store = openAppStore(file, { defaultCountry: 'GB' });
// 1,000 numbers of Ofcom's fictional range 07700 900000-900999: three batches of 350, 350, 300.
const recipients = Array.from({ length: 1000 }, (_, i) => `447700900${String(i).padStart(3, '0')}`);
const job = store.outbox.createJob(recipients, { kind: 'text', text: 'crash test' });
const first = store.outbox.markSending(store.outbox.nextBatch(job.id)!.id);
store.outbox.recordResults(
  first.id,
  first.recipients.map((to, i) => ({ to, report: '-3', messageIdentifier: `ID${i}` })),
);
const second = store.outbox.markSending(store.outbox.nextBatch(job.id)!.id);
process.stdout.write(JSON.stringify({ jobId: job.id, first: first.id, second: second.id }) + '\n');
// The "request" never finishes: the parent kills us here.
setInterval(() => {}, 1000);
