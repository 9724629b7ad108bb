// The app's update checker wired to the session (./updates.ts does the checks and downloads): the
// deploy policy's `updates` part (or the option of tests), the release asked of the signed-in
// account's gateway, the download hosts allowed by it; and the session hooks that keep what a check
// found while the gateway stays the same (only the PIN changed).
import type { EffectivePolicy } from '../../domain/index.ts';
import type { Emit, MessengerAppOptions } from './app-options.ts';
import { packageVersion } from './app-options.ts';
import { sameGateway } from './session.ts';
import type { SessionHooks, Sessions } from './session.ts';
import { createUpdater, gatewayHostOf, releaseFrom } from './updates.ts';

export function createAppUpdater(deps: {
  opts: MessengerAppOptions;
  policy: EffectivePolicy;
  sessions: Pick<Sessions, 'current'>;
  emit: Emit;
  log: (message: string) => void;
}) {
  const { opts, sessions } = deps;
  // On start (once a session exists) and every 24 h, policy permitting.
  const { enabled, channel, allowedDownloadHosts, publicKeys, maxDownloadBytes, allowUnsigned } =
    deps.policy.updates;
  const updater = createUpdater({
    policy: opts.updates ?? {
      enabled,
      channel,
      publicKeys,
      maxDownloadBytes,
      allowUnsigned,
      ...(allowedDownloadHosts ? { allowedDownloadHosts } : {}),
    },
    currentVersion: packageVersion(),
    ...(opts.downloadsDir !== undefined ? { downloadsDir: opts.downloadsDir } : {}),
    ...(opts.openPath ? { openPath: opts.openPath } : {}),
    ...(opts.updateDownloadCa !== undefined ? { ca: opts.updateDownloadCa } : {}),
    fetchRelease: () => {
      const s = sessions.current();
      return s ? releaseFrom(s.client) : null;
    },
    gatewayHosts: () => {
      const a = sessions.current()?.account;
      return [a?.primaryUrl, a?.secondaryUrl].map(gatewayHostOf).filter((h): h is string => h !== null);
    },
    emit: deps.emit,
    log: deps.log,
  });
  // What the update check found belongs to the session's gateway: kept when only the PIN changed.
  const hooks: SessionHooks = {
    sessionReady: () => updater.sessionReady(),
    sessionEnded: (s, next) => (sameGateway(s.account, next) ? undefined : updater.sessionEnded()),
  };
  return { updater, hooks };
}
