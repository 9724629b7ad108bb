// Update checks and the update download (issue 7): MobileMessengerVersion at start (once a gateway
// session exists) and every 24 h while the app runs, only when the deploy policy leaves updates
// enabled; a newer version (by channel: 'stable' ignores pre-releases, 'beta' offers them) is
// kept as `available` and announced as 'updates:available'. updates.download() streams its
// DownloadURL into the Downloads folder (./update-download.ts): https only, from a host of
// allowedDownloadHosts when the policy lists them (only those), else the signed-in gateway's host.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { MessengerApi, MessengerEvents } from '../../preload/api.ts';
import type { UpdateDownload, UpdateInfo, UpdateStatus } from '../../domain/index.ts';
import type { GatewayClient } from '../client/gateway-client.ts';
import { checkDownloadUrl, DownloadError, downloadFile, normalizeHost } from './update-download.ts';
import { updateKeys } from './update-signature.ts';
import { ApiError } from './validate-args.ts';
import { isOfferedUpdate, UPDATE_CHANNELS } from './versions.ts';
import type { UpdateChannel } from './versions.ts';
import { zonedDateTime } from '../../protocol/soap/values.ts';

export const UPDATE_CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** After a failed automatic check (gateway unreachable) the next try comes sooner. */
export const UPDATE_RETRY_MS = 60 * 60 * 1000;

/** The deploy policy's updates section (the lead wires the policy file to it). */
export interface UpdatePolicy {
  enabled?: boolean;
  channel?: string;
  allowedDownloadHosts?: string[];
  /** Ed25519 public keys pinned by the policy (with the built-in ones; ./update-signature.ts). */
  publicKeys?: string[];
  /** The size cap of a download, bytes (default 1 GiB). */
  maxDownloadBytes?: number;
  /** Issue 23: a release without any .sig is kept, marked not verified (a lab's own builds). */
  allowUnsigned?: boolean;
}

export interface UpdaterOptions {
  policy?: UpdatePolicy;
  /** This app's version (package.json). */
  currentVersion: string;
  /** Default ~/Downloads (the Electron shell passes app.getPath('downloads')). */
  downloadsDir?: string;
  /** MobileMessengerVersion through the signed-in client; null when no session. */
  fetchRelease: () => Promise<Omit<UpdateInfo, 'newer'>> | null;
  /** Hosts of the signed-in gateway (primary, secondary). */
  gatewayHosts: () => string[];
  /** The Electron shell's shell.openPath / showItemInFolder; none in the web shell. */
  openPath?: (path: string, how: 'open' | 'reveal') => Promise<void>;
  emit: <E extends 'updates:available' | 'updates:progress' | 'updates:download' | 'updates:status'>(
    event: E,
    payload: MessengerEvents[E],
  ) => void;
  log: (message: string) => void;
  /** Tests: the check interval, and an extra trusted CA for the download. */
  intervalMs?: number;
  ca?: string;
  /** Tests: the built-in keys in place of BUILT_IN_UPDATE_KEYS. */
  builtInKeys?: readonly string[];
}

export interface Updater {
  api: MessengerApi['updates'];
  /** A session is ready (start-up or sign-in): check when due. */
  sessionReady(): void;
  /**
   * The session ended (sign-out, or sign-in to another account or gateway): what the last check
   * found belonged to that gateway, so it is forgotten (a download under way is cancelled, a
   * finished one's state cleared; the file stays) and 'updates:status' tells the windows. The next
   * session checks at once.
   */
  sessionEnded(): Promise<void>;
  close(): Promise<void>;
}

/** The host name of a gateway URL (for the download allow-list), null when it is not a URL. */
export function gatewayHostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return normalizeHost(new URL(url).hostname) || null;
  } catch {
    return null;
  }
}

/**
 * The hosts an update may be downloaded from: exactly the policy's allowedDownloadHosts when it
 * lists them (an administrator's list is exclusive: the gateway's host is not added, and an empty
 * list allows none), otherwise the signed-in gateway's host(s).
 */
export function downloadHosts(policy: UpdatePolicy, gatewayHosts: readonly string[]): string[] {
  return policy.allowedDownloadHosts !== undefined ? [...policy.allowedDownloadHosts] : [...gatewayHosts];
}

/**
 * Issue 17: the host of an update's DownloadURL when it may join the external-link allow-list:
 * only a URL that passes the download check itself (https, a host of downloadHosts), so a gateway
 * cannot widen the list with any host it names. Null otherwise.
 */
export function linkableDownloadHost(
  url: string | null | undefined,
  policy: UpdatePolicy,
  gatewayHosts: readonly string[],
): string | null {
  if (!url) return null;
  try {
    return normalizeHost(checkDownloadUrl(url, downloadHosts(policy, gatewayHosts)).hostname);
  } catch {
    return null;
  }
}

/** MobileMessengerVersion through a signed-in client, as fetchRelease gives it. */
export async function releaseFrom(client: GatewayClient): Promise<Omit<UpdateInfo, 'newer'>> {
  const r = await client.mobileMessengerVersion();
  if (r.outcome !== 'ok') throw new ApiError('gateway-unavailable', `no version information: ${r.reason}`);
  return {
    version: r.value.Version,
    releaseNotice: r.value.ReleaseNotice,
    downloadUrl: r.value.DownloadURL,
    // with its zone: a server may write none, which is UTC (protocol/soap/values.ts)
    releaseDate: zonedDateTime(r.value.ReleaseDate),
  };
}

export function createUpdater(opts: UpdaterOptions): Updater {
  const policy = opts.policy ?? {};
  const enabled = policy.enabled !== false;
  const channel: UpdateChannel = UPDATE_CHANNELS.includes(policy.channel as UpdateChannel)
    ? (policy.channel as UpdateChannel)
    : 'stable';
  if (policy.channel !== undefined && policy.channel !== channel)
    opts.log(`updates.channel ${JSON.stringify(policy.channel)} is not "stable" or "beta": using "stable"`);
  const interval = opts.intervalMs ?? UPDATE_CHECK_INTERVAL_MS;
  const downloadsDir = opts.downloadsDir ?? join(homedir(), 'Downloads');
  const publicKeys = updateKeys(policy.publicKeys, opts.log, opts.builtInKeys);

  let available: UpdateInfo | null = null;
  let lastCheckedAt: number | null = null;
  let checking: Promise<UpdateInfo> | null = null;
  let download: UpdateDownload | null = null;
  let running: { controller: AbortController; done: Promise<unknown> } | null = null;
  let closed = false;
  /** Counts sessions ended: a check that began in an earlier one is not kept. */
  let generation = 0;

  const status = (): UpdateStatus => ({
    enabled,
    channel,
    available,
    download: download ? { ...download } : null,
    lastCheckedAt,
  });

  async function check(): Promise<UpdateInfo> {
    if (!enabled)
      throw new ApiError(
        'updates-disabled',
        'update checks are turned off by the deploy policy (updates.enabled)',
      );
    if (checking) return checking;
    const gen = generation;
    const p: Promise<UpdateInfo> = (async () => {
      const pending = opts.fetchRelease();
      if (pending === null)
        throw new ApiError(
          'not-signed-in',
          'sign in to a gateway account first: the gateway tells the version',
        );
      const release = await pending;
      if (gen !== generation)
        throw new ApiError(
          'session-ended',
          'the gateway session ended during the update check; its answer was not kept: check again',
        );
      const info: UpdateInfo = {
        ...release,
        newer: isOfferedUpdate(release.version, opts.currentVersion, channel),
      };
      lastCheckedAt = Date.now();
      available = info.newer ? info : null;
      if (!closed) {
        if (info.newer) opts.emit('updates:available', info);
        // Every check's outcome, so that an offer no longer made leaves the windows too.
        opts.emit('updates:status', status());
      }
      return info;
    })().finally(() => {
      if (checking === p) checking = null;
    });
    checking = p;
    return p;
  }

  // One timer, re-armed at every automatic check: the next check is `interval` after the last one
  // (not after the app started), whatever that one's outcome. Unref'd; cleared on close.
  let timer: NodeJS.Timeout | null = null;
  function schedule(ms = interval): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!enabled || closed) return;
    timer = setTimeout(() => {
      timer = null;
      autoCheck(true);
    }, ms);
    timer.unref();
  }

  /** A check when due (never checked, or `interval` since the last), or at once from the timer. */
  function autoCheck(fromTimer: boolean): void {
    if (!enabled || closed) return;
    if (!fromTimer && lastCheckedAt !== null && Date.now() - lastCheckedAt < interval) return;
    schedule();
    check().catch((err: unknown) => {
      if (err instanceof ApiError && (err.code === 'not-signed-in' || err.code === 'session-ended')) return;
      opts.log(`update check failed: ${err instanceof Error ? err.message : String(err)}`);
      schedule(Math.min(interval, UPDATE_RETRY_MS));
    });
  }
  schedule();

  async function startDownload(): Promise<UpdateDownload> {
    if (!enabled)
      throw new ApiError('updates-disabled', 'updates are turned off by the deploy policy (updates.enabled)');
    const info = available;
    if (!info) throw new ApiError('no-update', 'no newer version is known: check for updates first');
    if (running) throw new ApiError('download-in-progress', 'an update is being downloaded already');
    const allowedHosts = downloadHosts(policy, opts.gatewayHosts());
    const controller = new AbortController();
    const state: UpdateDownload = {
      state: 'downloading',
      version: info.version,
      received: 0,
      total: null,
      path: null,
      error: null,
      canOpen: opts.openPath !== undefined,
      verified: false,
    };
    download = state;
    const announce = (): void => {
      if (!closed) opts.emit('updates:download', { ...state });
    };
    announce();
    const work = downloadFile({
      url: info.downloadUrl,
      dir: downloadsDir,
      allowedHosts,
      fallbackName: `Messenger-${info.version}`,
      signal: controller.signal,
      publicKeys,
      version: info.version,
      ...(policy.allowUnsigned === true ? { allowUnsigned: true } : {}),
      ...(policy.maxDownloadBytes !== undefined ? { maxBytes: policy.maxDownloadBytes } : {}),
      ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
      onProgress: (p) => {
        state.received = p.received;
        state.total = p.total;
        if (!closed) opts.emit('updates:progress', p);
      },
    });
    running = { controller, done: work.catch(() => undefined) };
    try {
      const result = await work;
      state.state = 'done';
      state.path = result.path;
      state.received = result.bytes;
      state.verified = result.verified;
      opts.log(
        `update ${info.version} downloaded to ${result.path} (${result.verified ? 'signature verified' : 'NOT verified: it has no signature and the deploy policy allows unsigned updates'})`,
      );
      announce();
      return { ...state };
    } catch (err) {
      const e =
        err instanceof DownloadError
          ? new ApiError(err.code, err.message)
          : new ApiError('download-failed', err instanceof Error ? err.message : String(err));
      state.state = e.code === 'download-cancelled' ? 'cancelled' : 'failed';
      state.error = e.message;
      announce();
      throw e;
    } finally {
      running = null;
    }
  }

  return {
    api: {
      check,
      status: async (): Promise<UpdateStatus> => status(),
      download: startDownload,
      cancelDownload: async () => {
        const r = running;
        if (!r) return;
        r.controller.abort();
        await r.done; // the .part is removed by then
      },
      openDownload: async ({ reveal }) => {
        if (!opts.openPath)
          throw new ApiError(
            'not-supported',
            'this shell cannot open files: the file is in your Downloads folder',
          );
        if (download?.state !== 'done' || download.path === null)
          throw new ApiError('no-download', 'no finished update download to open');
        await opts.openPath(download.path, reveal ? 'reveal' : 'open');
      },
    },
    sessionReady: () => autoCheck(false),
    async sessionEnded() {
      generation++;
      checking = null;
      const had = available !== null || download !== null || lastCheckedAt !== null;
      available = null;
      lastCheckedAt = null;
      const r = running;
      if (r) {
        r.controller.abort();
        await r.done; // the .part is removed by then
      }
      download = null;
      if (had && !closed) opts.emit('updates:status', status());
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const r = running;
      if (r) {
        r.controller.abort();
        await r.done;
      }
    },
  };
}
