// The reference gateway closing while requests are being handled (found in the logs of full test
// runs, 2026-11-27): a handler that was awaiting a PIN check (scrypt) when close() began went on to
// read the database close() had just closed — "statement has been finalized", logged as a gateway
// failure ("handler failed"). close() now lets the handlers being run finish first (at most 5 s).
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../gateway/log.ts';
import { postForm, startTestGateway } from '../../support/gateway.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

describe('the gateway closing', () => {
  it('lets the requests it is handling finish before it closes its database', async () => {
    const lines: string[] = [];
    const gw = await startTestGateway({
      gateway: { log: createLogger({ quiet: true, write: (l) => lines.push(l) }) },
    });
    closers.push(() => gw.close());
    // many accounts, each asked once: every request checks its PIN with scrypt (none cached yet)
    const logins = Array.from({ length: 24 }, () => gw.addAccount({ credit: '1.00' }));
    const asked = logins.map((l) =>
      postForm(gw.url, '/webservices/http/queryaccount', {
        Username: l.username,
        PIN: l.pin,
        AvailableCredit: '',
      }).catch(() => null),
    );
    await new Promise((r) => setTimeout(r, 60)); // the requests reach the gateway, their PIN checks run
    await gw.close();
    await Promise.all(asked);
    // (a handler close() did not wait for would go on after it: its failure is logged within this)
    await new Promise((r) => setTimeout(r, 1_500));
    const failures = lines.filter((l) => /"level":"error"/.test(l));
    expect(failures).toEqual([]);
  });
});
