// A real process for the crash test: journals a send, records the first batch's answer, then does
// what the sending loop does when the second batch is answered (issue 15): holds that answer and
// claims the third batch in one transaction, as if the third request were on its way and the
// second batch's results not stored yet; then waits to be killed with SIGKILL, mid-send.
import { openAppStore } from '../../../main/store/app-store.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: crash-child.ts <db file>');
const store = openAppStore(file, { defaultCountry: 'GB' });
// 1,300 UK mobile numbers (07400 100000 on): four batches of 350, 350, 350 and 250.
const recipients = Array.from({ length: 1300 }, (_, i) => String(447400100000 + i));
const job = store.outbox.createJob(recipients, { kind: 'text', text: 'crash test' });
const first = store.outbox.markSending(store.outbox.nextBatch(job.id)!.id);
store.outbox.recordResults(
  first.id,
  first.recipients.map((to, i) => ({ to, report: '-3', messageIdentifier: `ID${i}` })),
);
const second = store.outbox.markSending(store.outbox.nextBatch(job.id)!.id);
const third = store.app.transaction(() => {
  store.outbox.holdAnswer(
    second.id,
    second.recipients.map((to, i) => ({ to, report: '-3', messageIdentifier: `ID2-${i}` })),
  );
  return store.outbox.claimNext(job.id)!;
});
process.stdout.write(
  JSON.stringify({ jobId: job.id, first: first.id, second: second.id, third: third.id }) + '\n',
);
// The "request" never finishes: the parent kills us here.
setInterval(() => {}, 1000);
