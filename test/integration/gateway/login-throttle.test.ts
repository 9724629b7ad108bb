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
});
