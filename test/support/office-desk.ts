// Office-mode desks for the tests (issue 28): apps (createMessengerApp) on their own temporary data
// folders, in office mode on one test PostgreSQL (test/support/office-db.ts), signed in to one
// account of a reference gateway.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessengerApp, type MessengerApp } from '../../main/services/app.ts';
import type { OfficeStatus, OutboxJob } from '../../preload/api.ts';
import type { TestGateway } from './gateway.ts';
import type { Cleanups } from './office-db.ts';

export const POLL_SECONDS = 5;

export interface Desk {
  app: MessengerApp;
  dir: string;
  statuses: OfficeStatus[];
}

export async function openDesk(
  cleanups: Cleanups,
  gw: TestGateway,
  officeUrl: string,
  opts: { log?: (m: string) => void } = {},
): Promise<Desk> {
  const dir = await mkdtemp(join(tmpdir(), 'office-desk-'));
  const app = await createMessengerApp({
    dataDir: dir,
    env: {},
    log: opts.log ?? (() => {}),
    office: officeUrl,
  });
  cleanups.push(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  const statuses: OfficeStatus[] = [];
  app.events.on('office:status', (s) => statuses.push(s));
  await app.api.settings.update({ pollIntervalSeconds: POLL_SECONDS });
  await app.api.accounts.signIn({
    username: gw.username,
    pin: gw.pin,
    primaryUrl: gw.url,
    rememberPin: false,
  });
  // connected: the office database's schema is migrated and the desk is listening (a test that reads
  // the office database right after would otherwise race the migrations on a slow machine)
  await waitFor(
    'the desk connected to the office database',
    async () => (await app.api.office.status())?.connected,
  );
  return { app, dir, statuses };
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** waitFor with room for a loaded machine (2 cores shared by several test files). */
export const waitLong = <T>(what: string, fn: () => Promise<T | undefined | null | false>): Promise<T> =>
  waitFor(what, fn, 60_000);

/** The first send in the desk's History that `pred` takes, once there is one. */
export async function jobAt(
  desk: Desk,
  pred: (j: OutboxJob) => boolean,
  what: string,
  ms = 60_000,
): Promise<OutboxJob> {
  return waitFor(what, async () => (await desk.app.api.outbox.jobs()).find(pred), ms);
}

/** The send whose text is `text` in the desk's History, once none of it is pending or sending. */
export const finishedAt = (desk: Desk, text: string): Promise<OutboxJob> =>
  jobAt(
    desk,
    (j) => j.content.text === text && j.counts.sending === 0 && j.counts.pending === 0,
    `"${text}" at the desk, finished`,
  );

/** The desk holding the collector's lease, once exactly one does. */
export async function collectorOf(desks: readonly Desk[]): Promise<Desk> {
  return waitFor('one collector', async () => {
    const s = await Promise.all(desks.map((d) => d.app.api.office.status()));
    const holding = desks.filter((_, i) => s[i]?.collector === true);
    return holding.length === 1 ? holding[0] : undefined;
  });
}

/** How many times each inbound text is in the desk's store. */
export async function inboundTexts(app: MessengerApp): Promise<Map<string, number>> {
  const csv = await app.api.inbox.exportMessages();
  const counts = new Map<string, number>();
  for (const m of csv.matchAll(/reply \d+/g)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  return counts;
}

/**
 * Polls `app` until it has collected `expected` replies (at most five polls): a poll the desk began by
 * itself on taking the lease, before the replies were queued, is shared by the first pollNow and may
 * bring none of them. The total, to compare with `expected`.
 */
export async function collectAll(app: MessengerApp, expected: number): Promise<number> {
  let received = 0;
  for (let i = 0; i < 5 && received < expected; i++) received += (await app.api.inbox.pollNow()).received;
  return received;
}
