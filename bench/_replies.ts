// Replies waiting at the reference gateway for the benches that collect them (reply-burst, office):
// `count` phone replies from 5,000 numbers, queued in one transaction. Not a bench itself (run.ts
// skips files starting with _).
import { DEMO_NUMBER } from '../gateway/demo.ts';
import type { NetworkSimulator } from '../gateway/network/simulator.ts';
import { transaction } from '../gateway/store/db.ts';

export function queueReplies(
  network: NetworkSimulator,
  db: Parameters<typeof transaction>[0],
  offset: number,
  count: number,
): void {
  transaction(db, () => {
    for (let i = 0; i < count; i++) {
      const r = network.injectInbound({
        sendTo: DEMO_NUMBER,
        replyTo: String(447700100000 + ((offset + i) % 5_000)),
        message: `reply ${offset + i}: yes please, count me in`,
        source: 'sandbox',
      });
      if (!r.ok) throw new Error(r.reason);
    }
  });
}
