// The Account view's "Office database" setting (issue 28): the URL a desk uses when neither the
// command line (--office) nor the deploy policy (officeDatabase) names one, and its password kept
// like the PIN: encrypted by the OS keyring (Electron's safeStorage, main/electron/secrets.ts), never
// in clear. Outside Electron there is no keyring: the password then comes from
// MESSENGER_OFFICE_PASSWORD. A change applies when the app starts again.
import { hostname } from 'node:os';
import { ApiError } from '../../preload/ipc-contract.ts';
import type { OfficeSetting } from '../../preload/api.ts';
import type { OpenedAppStore } from '../store/app-store.ts';
import type { SecretStore } from '../services/secrets.ts';
import { parseOfficeUrl, shownUrl, urlHasPassword } from './connection.ts';
import { OfficeLocal } from './local.ts';

const URL_KEY = 'setting:url';
const PASSWORD_KEY = 'setting:password';

export interface OfficeSettingDeps {
  /** The store as opened: office mode writes its queue in the app's own transactions (like a repository). */
  store: OpenedAppStore;
  secrets: SecretStore | undefined;
  /** --office, which wins over everything. */
  commandLine: string | undefined;
  /** The deploy policy's officeDatabase. */
  policy: string | null;
  /** The URL in use now (shown form), null when the desk is not in office mode. */
  active(): string | null;
  /** This desk's name changed: the office database is told now when it is reached. */
  renamed?(): Promise<void>;
}

/** office_state's key of this desk's name (office.ts reads it). */
export const DESK_NAME_KEY = 'desk_name';
/** The longest desk name kept. */
const DESK_NAME_MAX = 60;

const shown = (url: string): string => {
  const p = parseOfficeUrl(url);
  return p.ok ? shownUrl(p.target) : url;
};

export function createOfficeSetting(deps: OfficeSettingDeps) {
  const local = new OfficeLocal(deps.store.app);
  const keyring = deps.secrets !== undefined && deps.secrets.backend === 'os';

  function get(): OfficeSetting {
    const source =
      deps.commandLine !== undefined ? 'command-line' : deps.policy !== null ? 'policy' : 'account';
    const stored = local.get(URL_KEY);
    const url = deps.commandLine ?? deps.policy ?? stored;
    const configured = url === null ? null : shown(url);
    return {
      url: configured,
      source: url === null ? null : source,
      passwordStored: local.get(PASSWORD_KEY) !== null,
      keyring,
      active: deps.active(),
      restartNeeded: configured !== deps.active(),
      deskName: local.get(DESK_NAME_KEY) ?? hostname(),
    };
  }

  return {
    api: {
      get: async (): Promise<OfficeSetting> => get(),
      rename: async (args: { name: string }): Promise<OfficeSetting> => {
        const name = args.name.trim();
        if (name.length > DESK_NAME_MAX)
          throw new ApiError('invalid-input', `a desk's name is at most ${DESK_NAME_MAX} characters`);
        if (name === '') local.delete(DESK_NAME_KEY);
        else local.set(DESK_NAME_KEY, name);
        await deps.renamed?.();
        return get();
      },
      set: async (args: { url: string | null; password?: string }): Promise<OfficeSetting> => {
        const now = get();
        if (now.source === 'command-line' || now.source === 'policy')
          throw new ApiError(
            'policy',
            now.source === 'policy'
              ? 'the office database is set by the deploy policy of this computer'
              : 'the office database was given on the command line (--office)',
          );
        if (args.url === null || args.url.trim() === '') {
          local.delete(URL_KEY);
          local.delete(PASSWORD_KEY);
          return get();
        }
        const parsed = parseOfficeUrl(args.url);
        if (!parsed.ok) throw new ApiError('invalid-input', `the office database URL ${parsed.reason}`);
        if (urlHasPassword(args.url))
          throw new ApiError('invalid-input', 'give the password in its own field, not in the URL');
        let encrypted: string | null = null;
        if (args.password !== undefined && args.password !== '') {
          if (!keyring || deps.secrets === undefined)
            throw new ApiError(
              'no-keyring',
              'the password cannot be stored here: there is no OS keyring (set MESSENGER_OFFICE_PASSWORD instead)',
            );
          encrypted = Buffer.from(await deps.secrets.encrypt(args.password)).toString('base64');
        }
        deps.store.app.transaction(() => {
          local.set(URL_KEY, args.url!.trim());
          if (encrypted !== null) local.set(PASSWORD_KEY, encrypted);
        });
        return get();
      },
    },
    /** The stored URL (no password), for setup.ts when neither the command line nor the policy names one. */
    storedUrl: (): string | null => local.get(URL_KEY),
    /** The stored password, decrypted by the keyring; undefined when none (or it cannot be read). */
    async storedPassword(): Promise<string | undefined> {
      const enc = local.get(PASSWORD_KEY);
      if (enc === null || deps.secrets === undefined) return undefined;
      return deps.secrets.decrypt(Buffer.from(enc, 'base64')).catch(() => undefined);
    },
  };
}
