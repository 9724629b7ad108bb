// Issue 25 item 5: each view says whose data it shows. The Inbox, History, campaigns and opt-outs
// are the signed-in account's (the Inbox since migration 045: a conversation per account and
// number); contacts, groups and templates are the desk's, shared by every account signed in here.
// Issue 28: in office mode contacts, groups and templates are the office's (every desk's), and an
// account's auto-reply rules are shared by every desk signed in to it (the local sandbox's are the
// desk's own).
import { createContext, useContext } from 'react';
import type { AccountSummary } from '../../preload/api.ts';
import { useOfficeShared } from '../hooks/useOfficeShared.ts';

/** The signed-in account (App provides it). */
export const AccountContext = createContext<AccountSummary | null>(null);

export const accountName = (a: AccountSummary): string =>
  a.sandbox ? 'Local sandbox' : a.label || a.username;

export type Scope = 'account' | 'desk';

export function AccountScope({
  scope,
  what,
  sharedInOffice = false,
}: {
  scope: Scope;
  what: string;
  /** Issue 28: an account's data every desk of the office signed in to it shares (account scope). */
  sharedInOffice?: boolean;
}) {
  const account = useContext(AccountContext);
  const officeMode = useOfficeShared();
  // nothing until office mode is known: a line that says "this desk" and then "the office" would be wrong first
  if (!account || officeMode === null) return null;
  const office = officeMode;
  const name = accountName(account);
  const shared = office && !account.sandbox;
  const words =
    scope === 'account'
      ? shared && sharedInOffice
        ? `${what} of ${name}: shared by every desk of the office signed in to this account.`
        : `${what} of ${name} only.`
      : office
        ? `${what}: shared by every desk of the office (and every account signed in on them).`
        : `${what}: shared by every account signed in on this desk.`;
  return (
    <p
      className="muted small account-scope"
      data-testid="account-scope"
      data-scope={office && scope === 'desk' ? 'office' : scope}
    >
      {words}
    </p>
  );
}
