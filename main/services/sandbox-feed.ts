// The local sandbox seen from the app: started on demand (./sandbox.ts), and read only through its
// HTTP routes like any gateway: the virtual phone's feed (GET /sandbox/outbound?username=) and the
// media picker's library (GET /sandbox/library?username=, merged with the LibraryNumbers this app
// saw returned). A real gateway has neither route: its library is the numbers seen.
import { join } from 'node:path';
import type { AppStore } from '../store/app-store.ts';
import { fromSandboxLibrary, mergeLibrary } from './library.ts';
import type { SandboxLibraryEntry } from './library.ts';
import { startSandbox } from './sandbox.ts';
import type { Sandbox } from './sandbox.ts';
import type { Session } from './session.ts';
import { ApiError } from './validate-args.ts';
import type { MessengerApi } from '../../preload/api.ts';

export interface SandboxFeedDeps {
  dataDir: string;
  receiptDelayMs?: number | undefined;
  log?: (line: string) => void;
  store: AppStore;
  sessions: { require(): Session };
}

interface OutboundRow {
  id: number;
  MessageIdentifier: string;
  recipient: string;
  part: number;
  parts: number;
  pdu: string;
  createdAt: string;
}

export function createSandboxFeed(deps: SandboxFeedDeps) {
  let sandbox: Sandbox | null = null;
  let starting: Promise<Sandbox> | null = null;

  /** GET `route` of the running sandbox as JSON. */
  async function get<T>(sb: Sandbox, route: string, query: URLSearchParams): Promise<T> {
    const res = await fetch(`${sb.url}${route}?${query.toString()}`);
    if (!res.ok)
      throw new ApiError('gateway-unavailable', `the sandbox answered HTTP ${res.status} to ${route}`);
    return (await res.json()) as T;
  }

  const api: Pick<MessengerApi, 'sandbox' | 'library'> = {
    sandbox: {
      // The virtual phone's source, for the signed-in demo account only.
      outbound: async (args) => {
        const s = deps.sessions.require();
        const sb = sandbox;
        if (!s.account.sandbox || !sb) {
          throw new ApiError(
            'not-sandbox',
            `the virtual phone works with the local sandbox only; the current account ${s.account.username} is on ${s.account.primaryUrl}`,
          );
        }
        const limit = args?.limit ?? 500;
        const query = new URLSearchParams({
          username: s.account.username,
          after: String(args?.afterId ?? 0),
          limit: String(limit),
        });
        const rows = await get<OutboundRow[]>(sb, '/sandbox/outbound', query);
        const items = rows.map((r) => ({
          id: r.id,
          messageIdentifier: r.MessageIdentifier,
          recipient: r.recipient,
          part: r.part,
          parts: r.parts,
          pdu: r.pdu,
          createdAt: r.createdAt,
        }));
        const last = items[items.length - 1];
        return { items, next: items.length === limit && last ? last.id : null };
      },
    },
    library: {
      list: async () => {
        const s = deps.sessions.require();
        const seen = deps.store.libraryNumbers.list(s.account.id);
        const sb = sandbox;
        if (!s.account.sandbox || !sb) return seen;
        const query = new URLSearchParams({ username: s.account.username });
        return mergeLibrary(
          fromSandboxLibrary(await get<SandboxLibraryEntry[]>(sb, '/sandbox/library', query)),
          seen,
        );
      },
    },
  };

  return {
    api,
    /** The sandbox, started on first use (one start even when asked twice at once). */
    ensure(): Promise<Sandbox> {
      if (sandbox) return Promise.resolve(sandbox);
      starting ??= startSandbox({
        dir: join(deps.dataDir, 'sandbox-gateway'),
        ...(deps.receiptDelayMs !== undefined ? { receiptDelayMs: deps.receiptDelayMs } : {}),
        ...(deps.log ? { log: deps.log } : {}),
        // A sandbox thread that died is forgotten: the next sign-in to the sandbox starts another.
        onDied: () => {
          sandbox = null;
          starting = null;
        },
      }).then(
        (sb) => {
          sandbox = sb;
          return sb;
        },
        (err: unknown) => {
          starting = null;
          throw err;
        },
      );
      return starting;
    },
    /** The sandbox when it runs (its push URL follows the app's push receiver). */
    running: (): Sandbox | null => sandbox,
    async close(): Promise<void> {
      // A sandbox still starting is closed once it has started.
      const sb = sandbox ?? (await starting?.catch(() => null)) ?? null;
      await sb?.close();
    },
  };
}
