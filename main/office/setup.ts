// Whether this desk is in office mode, and on which database (docs/OFFICE.md): the URL given to the
// app (`npm run web -- --office URL`) wins over the deploy policy's `officeDatabase`, which wins over
// the Account view's setting (setting.ts). The password: the one the command-line URL carries, else
// MESSENGER_OFFICE_PASSWORD, else the one the OS keyring keeps for the setting (never in clear).
import type { OpenedAppStore } from '../store/app-store.ts';
import type { SecretStore } from '../services/secrets.ts';
import type { EffectivePolicy } from '../../preload/api.ts';
import { OFFICE_PASSWORD_ENV, parseOfficeUrl } from './connection.ts';
import { createOffice } from './office.ts';
import type { Office, OfficeDeps } from './office.ts';
import { createOfficeSetting } from './setting.ts';

export interface OpenOfficeArgs extends Omit<OfficeDeps, 'target' | 'password' | 'store'> {
  /** The store as opened: office mode writes its queue in the app's own transactions (like a repository). */
  store: OpenedAppStore;
  /** From the command line (may carry the password). */
  url: string | undefined;
  policy: EffectivePolicy;
  env: Record<string, string | undefined>;
  secrets: SecretStore | undefined;
}

/**
 * The desk's office mode (`office`, null when none is configured) and the Account view's setting.
 * A URL given on the command line or by the policy that cannot be used throws; a stored setting
 * that cannot be used is logged and left off.
 */
export async function openOffice(
  args: OpenOfficeArgs,
): Promise<{ office: Office | null; setting: ReturnType<typeof createOfficeSetting> }> {
  let office: Office | null = null;
  const setting = createOfficeSetting({
    store: args.store,
    secrets: args.secrets,
    commandLine: args.url,
    policy: args.policy.officeDatabase,
    active: () => office?.status().url ?? null,
    renamed: async () => office?.renamed(),
  });
  const fromSetting = args.url === undefined && args.policy.officeDatabase === null;
  const given = args.url ?? args.policy.officeDatabase ?? setting.storedUrl() ?? undefined;
  if (given === undefined || given.trim() === '') return { office, setting };
  const parsed = parseOfficeUrl(given);
  if (!parsed.ok) {
    if (!fromSetting)
      throw new Error(
        `the office database URL ${args.url !== undefined ? 'given with --office' : 'of the deploy policy (officeDatabase)'} ${parsed.reason}`,
      );
    args.log(`office database setting not used: the URL ${parsed.reason}`);
    return { office, setting };
  }
  const { target } = parsed;
  const envPassword = args.env[OFFICE_PASSWORD_ENV];
  const password =
    target.password ??
    (envPassword !== undefined && envPassword !== '' ? envPassword : await setting.storedPassword());
  office = createOffice({ ...args, target, password });
  return { office, setting };
}
