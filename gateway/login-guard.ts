// Login throttling (issue 17). A PIN check costs a scrypt (~16 MiB, a few ms): run on the event
// loop, a flood of wrong logins stalled every other request, and nothing slowed a guesser down.
// Now the check is async (libuv's thread pool) and this guard stands in front of it:
//
// - back-off per username and per client address: after FREE_FAILURES failed logins in a row, the
//   next attempt from that address, or for that username, is refused without any check (even with
//   the right PIN) until a delay has passed: BASE_DELAY_MS doubling with every further failure, at
//   most MAX_DELAY_MS. The spec warns clients that repeated errors look like an attack; the server
//   acts on it too. A success clears both counters. Per username the threshold is higher
//   (USER_FREE_FAILURES), so that a stranger cannot lock an account out for long.
// - a loopback address (127.0.0.0/8, ::1) gets no back-off of its own: behind a reverse proxy on the
//   same machine every client has it, and one guesser would lock everyone out. The username's
//   back-off still applies to it.
// - at most PER_ADDRESS_CONCURRENCY scrypt checks at a time per address (the rest wait their turn):
//   64 connections of wrong logins take 2 threads, not the whole pool the other clients share.
//
// - issue 23: one attempt per username at a time (`serial`). The back-off is looked at when an
//   attempt's turn comes, after every earlier attempt for that username has been counted: 200 wrong
//   PINs and the right one sent at the same moment get USER_FREE_FAILURES checks, then back-off
//   for the rest (the right one included). Before, every attempt looked at the back-off on arrival,
//   when none had failed yet, and all were checked.
// - at most MAX_CONCURRENT_CHECKS scrypt checks at a time in all (many addresses, many usernames):
//   the thread pool is shared with everything else the gateway does.
//
// The client address reaches the guard without threading it through every route: the HTTP handler
// runs each request inside `withClientAddress` (AsyncLocalStorage).
import { AsyncLocalStorage } from 'node:async_hooks';

export const FREE_FAILURES = 5;
export const USER_FREE_FAILURES = 10;
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 15 * 60 * 1000;
export const PER_ADDRESS_CONCURRENCY = 2;
export const MAX_CONCURRENT_CHECKS = 4;
/** Counters idle this long are forgotten (the table cannot grow without bound). */
const FORGET_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 100_000;

const addressStore = new AsyncLocalStorage<string>();

/** The key of the gateway-wide cap in `running` (no client address is empty and starts with a space). */
const ALL = ' all';

/** Runs `fn` with `address` as the client address the login guard sees. */
export function withClientAddress<T>(address: string, fn: () => T): T {
  return addressStore.run(address, fn);
}

export function currentClientAddress(): string {
  return addressStore.getStore() ?? '';
}

export function isLoopback(address: string): boolean {
  return /^(127\.|::1$|::ffff:127\.)/.test(address);
}

interface Failures {
  count: number;
  last: number;
  until: number;
}

export interface LoginGuardOptions {
  now?: () => number;
}

export class LoginGuard {
  private readonly users = new Map<string, Failures>();
  private readonly addresses = new Map<string, Failures>();
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  /** the last attempt queued per username (serial) */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly now: () => number;

  constructor(opts: LoginGuardOptions = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** Milliseconds until `username` from `address` may try again (0: now). */
  retryAfterMs(username: string, address: string): number {
    const t = this.now();
    const u = this.users.get(username);
    const a = this.addresses.get(address);
    return Math.max(0, (u?.until ?? 0) - t, (a?.until ?? 0) - t);
  }

  /** Records the outcome of a check. */
  record(username: string, address: string, ok: boolean): void {
    if (ok) {
      this.users.delete(username);
      this.addresses.delete(address);
      return;
    }
    this.fail(this.users, username, USER_FREE_FAILURES);
    if (!isLoopback(address)) this.fail(this.addresses, address, FREE_FAILURES);
  }

  private fail(map: Map<string, Failures>, key: string, free: number): void {
    const t = this.now();
    const f = map.get(key) ?? { count: 0, last: t, until: 0 };
    f.count++;
    f.last = t;
    if (f.count >= free)
      f.until = t + Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(30, f.count - free));
    map.delete(key);
    map.set(key, f);
    this.prune(map);
  }

  private prune(map: Map<string, Failures>): void {
    const t = this.now();
    for (const [k, f] of map) {
      if (map.size <= MAX_ENTRIES && t - f.last < FORGET_MS) break; // oldest first (insertion order)
      map.delete(k);
    }
  }

  /**
   * Runs `attempt` for `username` once every earlier attempt for it has finished, so that what it
   * decides from the back-off counts all of them (issue 23).
   */
  serial<T>(username: string, attempt: () => Promise<T>): Promise<T> {
    const before = this.queues.get(username) ?? Promise.resolve();
    const run = before.then(attempt);
    const settled = run.then(
      () => {},
      () => {},
    );
    this.queues.set(username, settled);
    void settled.then(() => {
      if (this.queues.get(username) === settled) this.queues.delete(username);
    });
    return run;
  }

  /**
   * Runs `check` when fewer than PER_ADDRESS_CONCURRENCY checks of `address`, and fewer than
   * MAX_CONCURRENT_CHECKS in all, are running.
   */
  async limit<T>(address: string, check: () => Promise<T>): Promise<T> {
    await this.acquire(address, PER_ADDRESS_CONCURRENCY);
    try {
      await this.acquire(ALL, MAX_CONCURRENT_CHECKS);
      try {
        return await check();
      } finally {
        this.release(ALL);
      }
    } finally {
      this.release(address);
    }
  }

  private async acquire(key: string, most: number): Promise<void> {
    if ((this.running.get(key) ?? 0) >= most) {
      // release() hands its slot over: the count stays as it is
      await new Promise<void>((resolve) => {
        const q = this.waiting.get(key) ?? [];
        q.push(resolve);
        this.waiting.set(key, q);
      });
      return;
    }
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
  }

  private release(key: string): void {
    const q = this.waiting.get(key);
    const next = q?.shift();
    if (q?.length === 0) this.waiting.delete(key);
    if (next) {
      next();
      return;
    }
    const n = (this.running.get(key) ?? 1) - 1;
    if (n === 0) this.running.delete(key);
    else this.running.set(key, n);
  }
}
