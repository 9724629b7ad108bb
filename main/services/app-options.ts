// What createMessengerApp (./app.ts) takes and returns, and the small parts every service shares:
// the event hub, the deploy policy as loaded, the app's version, an error's text.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { loadDeployPolicy } from './deploy-policy.ts';
import type { LoadPolicyOptions } from './deploy-policy.ts';
import type { UpdatePolicy } from './updates.ts';
import type { SecretStore } from './secrets.ts';
import type { AppStore } from '../store/app-store.ts';
import type { EventChannel, MessengerApi, MessengerEvents } from '../../preload/api.ts';
import type { EffectivePolicy } from '../../domain/index.ts';

export interface MessengerAppOptions {
  dataDir: string;
  /** Sign in to the local sandbox at start (npm run web -- --sandbox). */
  sandbox?: boolean;
  /** The Electron shell's safeStorage; none outside Electron (PIN in memory only). */
  secrets?: SecretStore;
  /** Environment for MESSENGER_PIN (default process.env). */
  env?: Record<string, string | undefined>;
  /** Receipt delay of the sandbox gateway, ms (tests). */
  sandboxReceiptDelayMs?: number;
  log?: (message: string) => void;
  /**
   * The deploy policy: an effective policy as is, or where to read it (tests). Default: the system
   * location, then MESSENGER_POLICY of `env` (main/services/deploy-policy.ts).
   */
  policy?: EffectivePolicy | LoadPolicyOptions;
  /**
   * Update checks and downloads in place of the deploy policy's `updates` part (tests); by default
   * the policy decides (docs/ADMIN.md "Updates"; without a policy: enabled, stable).
   */
  updates?: UpdatePolicy;
  /** Where update downloads go: the Electron shell passes app.getPath('downloads'); default ~/Downloads. */
  downloadsDir?: string;
  /** Opens a downloaded file or shows it in its folder (Electron's shell); absent in the web shell. */
  openPath?: (path: string, how: 'open' | 'reveal') => Promise<void>;
  /** An extra CA (PEM) trusted for update downloads only in place of the system's (tests). */
  updateDownloadCa?: string;
  /** The preferences the Electron shell opened over electron-store; by default conf's file in dataDir. */
  preferences?: AppStore['preferences'];
  /**
   * Issue 28: office mode on this PostgreSQL database (postgres://USER[:PASSWORD]@HOST:PORT/DB, from
   * `npm run web -- --office`); wins over the deploy policy's officeDatabase (main/office/setup.ts).
   */
  office?: string;
  /** Issue 25: free bytes needed in dataDir before replies are collected (tests; default 8 MiB). */
  minFreeDiskBytes?: number;
  /** Issue 25: ms after start of the first look whether the daily backup is due (tests; default 60 s). */
  firstBackupCheckMs?: number;
}

export interface MessengerEventsHub {
  on<E extends EventChannel>(event: E, listener: (payload: MessengerEvents[E]) => void): () => void;
}

export interface MessengerApp {
  api: MessengerApi;
  events: MessengerEventsHub;
  /** The shells' generic binding: validates `arg` for `channel` and calls it. */
  call(channel: unknown, arg?: unknown): Promise<unknown>;
  /** Where the push receiver listens (to configure at a gateway), null when it is off. */
  pushReceiverUrl(): string | null;
  close(): Promise<void>;
}

/** Sends an event to every window (both shells subscribe through MessengerEventsHub). */
export type Emit = <E extends EventChannel>(event: E, payload: MessengerEvents[E]) => void;

export type Log = (message: string) => void;

/** The app's event hub: `emit` for the services, `hub` for the shells. */
export function createEvents(): { emit: Emit; hub: MessengerEventsHub; close(): void } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  return {
    emit: (event, payload) => {
      emitter.emit(event, payload);
    },
    hub: {
      on(event, listener) {
        emitter.on(event, listener as (p: unknown) => void);
        return () => emitter.off(event, listener as (p: unknown) => void);
      },
    },
    close: () => emitter.removeAllListeners(),
  };
}

/** The policy given as is, or loaded (system location, MESSENGER_POLICY); a bad file is logged. */
export function resolvePolicy(
  given: MessengerAppOptions['policy'],
  env: Record<string, string | undefined>,
  log: Log,
): EffectivePolicy {
  const policy: EffectivePolicy =
    given !== undefined && 'offerSandbox' in given ? given : loadDeployPolicy({ env, ...given });
  if (policy.error) {
    log(
      `deploy policy ${policy.error.path} not applied, safe defaults in force: ${policy.error.problems.join('; ')}`,
    );
  }
  return policy;
}

/** This app's version (package.json), 0.0.0 when it cannot be read. */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs every step even when one before it fails; the first failure is thrown after all of them. */
export async function runAll(steps: ReadonlyArray<() => unknown>): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}
