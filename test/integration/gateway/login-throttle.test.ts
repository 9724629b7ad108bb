// Issue 17: gateway logins are throttled and never block the event loop. The back-off per client
// address and per username (gateway/login-guard.ts) on a clock of the test's own, the scrypt check
// off the event loop, and over real HTTP: after repeated wrong PINs even the right one is refused
// until the delay has passed, while another client address is unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../../gateway/accounts.ts';
import {
  BASE_DELAY_MS,
  FREE_FAILURES,
  LoginGuard,
  MAX_CONCURRENT_CHECKS,
  MAX_DELAY_MS,
  PER_ADDRESS_CONCURRENCY,
  USER_FREE_FAILURES,
} from '../../../gateway/login-guard.ts';
import { parseTags, postForm, startTestGateway } from '../../support/gateway.ts';
import type { TestGateway } from '../../support/gateway.ts';

const PATH = '/webservices/http/queryaccount';

describe('login guard', () => {
  it('backs off an address after repeated failures, doubling, capped, and clears on success', () => {
    let t = 1_000_000;
    const g = new LoginGuard({ now: () => t });
    for (let i = 0; i < FREE_FAILURES - 1; i++) g.record(`user${i}`, '10.0.0.1', false);
    expect(g.retryAfterMs('anyone', '10.0.0.1')).toBe(0);
    g.record('userX', '10.0.0.1', false);
    expect(g.retryAfterMs('anyone', '10.0.0.1')).toBe(BASE_DELAY_MS);
    expect(g.retryAfterMs('anyone', '10.0.0.2')).toBe(0); // another address
    g.record('userY', '10.0.0.1', false);
    expect(g.retryAfterMs('anyone', '10.0.0.1')).toBe(2 * BASE_DELAY_MS);
    for (let i = 0; i < 40; i++) g.record('userZ', '10.0.0.1', false);
    expect(g.retryAfterMs('anyone', '10.0.0.1')).toBe(MAX_DELAY_MS);
    t += MAX_DELAY_MS;
    expect(g.retryAfterMs('anyone', '10.0.0.1')).toBe(0);
    g.record('userZ', '10.0.0.1', true);
    g.record('userZ', '10.0.0.1', false);
    expect(g.retryAfterMs('userZ', '10.0.0.1')).toBe(0); // counting starts again
  });

  it('gives loopback (a reverse proxy on the same machine) no back-off of its own', () => {
    const g = new LoginGuard({ now: () => 5 });
    for (let i = 0; i < FREE_FAILURES * 3; i++) g.record(`user${i}`, '127.0.0.1', false);
    expect(g.retryAfterMs('someone', '127.0.0.1')).toBe(0);
    expect(g.retryAfterMs('someone', '::ffff:127.0.0.1')).toBe(0);
  });

  it('backs off a username tried from many addresses', () => {
    const g = new LoginGuard({ now: () => 5 });
    for (let i = 0; i < USER_FREE_FAILURES; i++) g.record('victim', `10.0.1.${i}`, false);
    expect(g.retryAfterMs('victim', '10.9.9.9')).toBeGreaterThan(0);
    expect(g.retryAfterMs('other', '10.9.9.9')).toBe(0);
  });

  it('runs at most a few checks of one address at a time', async () => {
    const g = new LoginGuard();
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const checks = Array.from({ length: 8 }, () =>
      g.limit('10.0.0.9', async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => releases.push(r));
        running--;
        return true;
      }),
    );
    while (checks.length > 0) {
      await new Promise((r) => setImmediate(r));
      const release = releases.shift();
      if (!release) continue;
      release();
      await checks.shift();
    }
    expect(most).toBe(PER_ADDRESS_CONCURRENCY);
  });
});

describe('gateway logins over HTTP', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('checks the PIN off the event loop', async () => {
    const pending = authenticate(gw.ctx.db, gw.username, gw.pin, new LoginGuard(), '10.1.1.1');
    expect(pending).toBeInstanceOf(Promise);
    let loopTurned = false;
    setImmediate(() => (loopTurned = true));
    const account = await pending;
    expect(loopTurned).toBe(true);
    expect(account?.username).toBe(gw.username);
  });

  it('refuses even the right PIN after repeated wrong ones, until the back-off has passed', async () => {
    const query = (pin: string) =>
      postForm(gw.url, PATH, { Username: gw.username, PIN: pin, AvailableCredit: '' });
    expect(parseTags((await query(gw.pin)).body).AvailableCredit).toBeDefined();
    // From loopback: the username's back-off.
    for (let i = 0; i < USER_FREE_FAILURES; i++) {
      expect(parseTags((await query(`wrong${i}`)).body).AvailableCredit).toBeUndefined();
    }
    // The right PIN, at once: refused as an invalid login.
    const blocked = await query(gw.pin);
    expect(parseTags(blocked.body).AvailableCredit).toBeUndefined();
    await new Promise((r) => setTimeout(r, BASE_DELAY_MS + 100));
    expect(parseTags((await query(gw.pin)).body).AvailableCredit).toBeDefined();
  });

  // Issue 23: every attempt looked at the back-off on arrival, when none had failed yet, so a burst
  // was checked in full and the right PIN in it accepted.
  it('checks a burst of 200 wrong PINs plus the right one as if one after another', async () => {
    const guard = new LoginGuard();
    const burst = Array.from({ length: 200 }, (_, i) =>
      authenticate(gw.ctx.db, gw.username, `wrong${i}`, guard, '127.0.0.1'),
    );
    const right = authenticate(gw.ctx.db, gw.username, gw.pin, guard, '127.0.0.1');
    expect(await Promise.all(burst)).toEqual(Array.from({ length: 200 }, () => null));
    expect(await right).toBeNull();
    // Only USER_FREE_FAILURES were checked and counted: the back-off is the first step's, not
    // 2^190 steps'. Once it has passed, the right PIN gets in.
    expect(guard.retryAfterMs(gw.username, '127.0.0.1')).toBeLessThanOrEqual(BASE_DELAY_MS);
    await new Promise((r) => setTimeout(r, guard.retryAfterMs(gw.username, '127.0.0.1') + 50));
    expect((await authenticate(gw.ctx.db, gw.username, gw.pin, guard, '127.0.0.1'))?.username).toBe(
      gw.username,
    );
  });

  it('refuses the right PIN sent over HTTP at the same moment as 200 wrong ones', async () => {
    const { username, pin } = gw.addAccount({ credit: '1.00' });
    const query = (p: string) => postForm(gw.url, PATH, { Username: username, PIN: p, AvailableCredit: '' });
    const burst = Array.from({ length: 200 }, (_, i) => query(`wrong${i}`));
    const right = query(pin);
    const answers = await Promise.all([...burst, right]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => parseTags(a.body).AvailableCredit !== undefined)).toEqual([]);
  });

  it('refuses a Username or PIN longer than the spec allows without a check, counting nothing', async () => {
    const guard = new LoginGuard();
    const huge = 'u'.repeat(4 * 1024 * 1024);
    for (let i = 0; i < FREE_FAILURES + 1; i++) {
      expect(await authenticate(gw.ctx.db, huge, gw.pin, guard, '10.4.0.1')).toBeNull();
      expect(await authenticate(gw.ctx.db, gw.username, 'p'.repeat(21), guard, '10.4.0.1')).toBeNull();
    }
    // never checked, so never a failure of that address or of the real username
    expect(guard.retryAfterMs(gw.username, '10.4.0.1')).toBe(0);
  });

  it('runs at most MAX_CONCURRENT_CHECKS checks at a time across addresses', async () => {
    const g = new LoginGuard();
    let running = 0;
    let most = 0;
    const checks = Array.from({ length: 20 }, (_, i) =>
      g.limit(`10.3.0.${i}`, async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return true;
      }),
    );
    await Promise.all(checks);
    expect(most).toBe(MAX_CONCURRENT_CHECKS);
  });
});
