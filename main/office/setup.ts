// Whether this desk is in office mode, and on which database (docs/OFFICE.md): the URL given to the
// app (`npm run web -- --office URL`) wins over the deploy policy's `officeDatabase`. The password:
// the one the command-line URL carries, else MESSENGER_OFFICE_PASSWORD (never from a file in clear).
import type { AppStore } from '../store/app-store.ts';
import type { EffectivePolicy } from '../../preload/api.ts';
import { OFFICE_PASSWORD_ENV, parseOfficeUrl } from './connection.ts';
import { createOffice } from './office.ts';
import type { Office, OfficeDeps } from './office.ts';

export interface OpenOfficeArgs extends Omit<OfficeDeps, 'target' | 'password' | 'store'> {
  store: AppStore;
  /** From the command line (may carry the password). */
  url: string | undefined;
  policy: EffectivePolicy;
  env: Record<string, string | undefined>;
}

/** The desk's office mode, null when none is configured; a URL that cannot be used throws. */
export function openOffice(args: OpenOfficeArgs): Office | null {
  const given = args.url ?? args.policy.officeDatabase ?? undefined;
  if (given === undefined || given.trim() === '') return null;
  const parsed = parseOfficeUrl(given);
  if (!parsed.ok) throw new Error(`the office database URL ${parsed.reason}`);
  const { target } = parsed;
  const envPassword = args.env[OFFICE_PASSWORD_ENV];
  const password =
    target.password ?? (envPassword !== undefined && envPassword !== '' ? envPassword : undefined);
  return createOffice({ ...args, target, password });
}
