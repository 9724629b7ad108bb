// Settings as the user sees them (the deploy policy's poll interval bounds applied) and their side
// effects: 'settings:changed', then each service's settingsChanged(before, after) in order (the
// push receiver and the poll timer, the credit's low mark).
import type { AppStore } from '../store/app-store.ts';
import { POLL_INTERVAL_RANGE } from '../store/settings.ts';
import type { Emit } from './app-options.ts';
import { clampPollInterval } from './deploy-policy.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type { EffectivePolicy, Settings } from '../../domain/index.ts';

export interface SettingsDeps {
  store: AppStore;
  policy: EffectivePolicy;
  emit: Emit;
  /** The services that follow a change, in order. */
  effects(): Array<{ settingsChanged(before: Settings, after: Settings): void | Promise<void> }>;
}

export function createSettings(deps: SettingsDeps) {
  const { store, policy } = deps;

  const current = (): Settings => {
    const s = store.settings.get();
    return { ...s, pollIntervalSeconds: clampPollInterval(policy, s.pollIntervalSeconds) };
  };

  const api: MessengerApi['settings'] = {
    get: async () => current(),
    update: async (changes) => {
      const before = current();
      // A valid interval outside the deploy policy's bounds is stored clamped; an invalid one
      // is refused by the settings store as without a policy.
      const poll = changes.pollIntervalSeconds;
      const valid =
        Number.isInteger(poll) &&
        (poll as number) >= POLL_INTERVAL_RANGE[0] &&
        (poll as number) <= POLL_INTERVAL_RANGE[1];
      store.settings.update(
        valid ? { ...changes, pollIntervalSeconds: clampPollInterval(policy, poll as number) } : changes,
      );
      const after = current();
      deps.emit('settings:changed', after);
      for (const e of deps.effects()) await e.settingsChanged(before, after);
      return after;
    },
  };

  return {
    api,
    current,
    /** The default country for national numbers, undefined when none is set. */
    country: (): string | undefined => current().defaultCountry || undefined,
  };
}
