// Issue 25 item 5: each view says whose data it shows. The Inbox, History, campaigns and opt-outs
// are the signed-in account's (the Inbox since migration 045: a conversation per account and
// number); contacts, groups and templates are the desk's, shared by every account signed in here.
import { createContext, useContext } from 'react';
import type { AccountSummary } from '../../preload/api.ts';

/** The signed-in account (App provides it). */
export const AccountContext = createContext<AccountSummary | null>(null);

export const accountName = (a: AccountSummary): string =>
  a.sandbox ? 'Local sandbox' : a.label || a.username;

export type Scope = 'account' | 'desk';

export function AccountScope({ scope, what }: { scope: Scope; what: string }) {
  const account = useContext(AccountContext);
  if (!account) return null;
  const name = accountName(account);
  const words =
    scope === 'account'
      ? `${what} of ${name} only.`
      : `${what}: shared by every account signed in on this desk.`;
  return (
    <p className="muted small account-scope" data-testid="account-scope" data-scope={scope}>
      {words}
    </p>
  );
}
