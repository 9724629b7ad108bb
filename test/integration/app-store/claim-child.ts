// One of several processes claiming batches from the same journal at once: claims until none is
// left, answers each claimed batch, and prints the ids it claimed.
import { openAppStore } from '../../../main/store/app-store.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: claim-child.ts <db file>');
const store = openAppStore(file);
const claimed: number[] = [];
for (let batch = store.outbox.claimNext(); batch; batch = store.outbox.claimNext()) {
  claimed.push(batch.id);
  store.outbox.recordResults(
    batch.id,
    batch.recipients.map((to) => ({
      to,
      report: '-3',
      messageIdentifier: `${process.pid}-${batch.id}-${to}`,
    })),
  );
}
store.close();
process.stdout.write(JSON.stringify(claimed));
