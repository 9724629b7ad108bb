import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccountSummary, Credit, EffectivePolicy, SendHit, Settings } from '../domain/index.ts';
import { api, bridge, errorText, SEND_REQUEST_EVENT, useEvent } from './api.ts';
import { SignIn } from './views/SignIn.tsx';
import { Compose, type ComposeDraft } from './views/compose/Compose.tsx';
import { Inbox } from './views/Inbox.tsx';
import { History } from './views/History.tsx';
import { Contacts } from './views/Contacts.tsx';
import { Account } from './views/Account.tsx';
import { CreditBadge } from './components/CreditBadge.tsx';
import { ErrorText } from './components/ErrorText.tsx';
import { ChildAccounts } from './views/ChildAccounts.tsx';
import { PolicyBanner } from './components/PolicyBanner.tsx';
import { UpdateBanner } from './components/UpdateBanner.tsx';
import { OfficeBanner } from './components/OfficeBanner.tsx';
import { HeldBanner } from './components/HeldBanner.tsx';
import { Phone } from './views/Phone.tsx';
import { askNotificationPermission, notificationPermission, notifyReceived, windowTitle } from './notify.ts';
import { Automation } from './views/Automation.tsx';
import { AccountContext } from './components/AccountScope.tsx';

export type View =
  'compose' | 'inbox' | 'contacts' | 'history' | 'account' | 'children' | 'phone' | 'automation';

const NAV: ReadonlyArray<{ view: View; label: string; sandboxOnly?: boolean }> = [
  { view: 'compose', label: 'Compose' },
  { view: 'inbox', label: 'Inbox' },
  { view: 'contacts', label: 'Contacts & groups' },
  { view: 'history', label: 'History' },
  { view: 'automation', label: 'Opt-outs & auto-replies' },
  { view: 'children', label: 'Accounts' },
  { view: 'account', label: 'Account' },
  { view: 'phone', label: 'Virtual phone', sandboxOnly: true },
];

/** How long the web shell's connection is down before the banner explains what to do. */
const LOST_EXPLAIN_AFTER_MS = 4000;

/** Below this window width the sidebar starts collapsed and opens over the content. */
const NARROW_WIDTH = 900;

function applyTheme(theme: Settings['theme'] | undefined): void {
  const root = document.documentElement;
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
}

export function App() {
  const [account, setAccount] = useState<AccountSummary | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [view, setView] = useState<View>('compose');
  const [draft, setDraft] = useState<ComposeDraft | null>(null);
  const [draftKey, setDraftKey] = useState(0);
  const [unread, setUnread] = useState(0);
  const [credit, setCredit] = useState<Credit | null>(null);
  const [connected, setConnected] = useState(true);
  // Disconnected for longer than a restart of the shell takes: most likely it stopped or restarted.
  const [lostLong, setLostLong] = useState(false);
  useEffect(() => {
    if (connected) return undefined;
    const t = setTimeout(() => setLostLong(true), LOST_EXPLAIN_AFTER_MS);
    return () => {
      clearTimeout(t);
      setLostLong(false);
    };
  }, [connected]);
  const [pollError, setPollError] = useState<string | null>(null);
  const [searchFocus, setSearchFocus] = useState(0);
  // Issue 27: a send found by the Inbox search, which History opens when it is shown.
  const [openSend, setOpenSend] = useState<SendHit | null>(null);
  const [policy, setPolicy] = useState<EffectivePolicy | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [openConversation, setOpenConversation] = useState<{ peer: string } | null>(null);
  const [permission, setNotifyPermission] = useState(notificationPermission);
  // The sidebar starts collapsed where the window is narrow; it can be collapsed at any width.
  const [navCollapsed, setNavCollapsed] = useState(() => window.innerWidth < NARROW_WIDTH);
  const [notifyAsked, setNotifyAsked] = useState(false);
  // A window made narrow collapses the sidebar (opened, it would lie over the content); made wide
  // again, it shows the sidebar again.
  useEffect(() => {
    const narrow = window.matchMedia(`(max-width: ${NARROW_WIDTH - 1}px)`);
    const onChange = (e: MediaQueryListEvent) => setNavCollapsed(e.matches);
    narrow.addEventListener('change', onChange);
    return () => narrow.removeEventListener('change', onChange);
  }, []);
  // The Accounts view (child accounts) only when the user or the deploy policy turned it on and no
  // real operation was refused with Report 7 (main/services/children.ts; the gateway is never
  // probed). Asked when the account is known, on 'accounts:changed' and 'settings:changed'; a failed
  // call is asked again when the bridge reconnects.
  const [childPermission, setPermission] = useState<{
    accountId: string;
    permitted: boolean;
    definite: boolean;
  } | null>(null);
  const askPermission = useCallback((acc: AccountSummary) => {
    api()
      .children.permitted()
      .then(
        (p) => setPermission({ accountId: acc.id, permitted: p.permitted, definite: p.definite }),
        () => setPermission({ accountId: acc.id, permitted: false, definite: false }),
      );
  }, []);
  useEffect(() => {
    api()
      .policy.get()
      .then(setPolicy, () => undefined);
  }, []);
  useEffect(() => {
    if (account) askPermission(account);
  }, [account, askPermission]);
  const childrenPermitted =
    account !== null &&
    account !== undefined &&
    childPermission?.accountId === account.id &&
    childPermission.permitted;
  // What a reconnect of the bridge does (onConnection below): set after each render.
  const permissionRetry = useRef<() => void>(() => undefined);
  useEffect(() => {
    permissionRetry.current = () => {
      if (account && !(childPermission?.accountId === account.id && childPermission.definite))
        askPermission(account);
    };
  }, [account, childPermission, askPermission]);

  useEffect(() => {
    api()
      .accounts.current()
      .then(setAccount, (e: unknown) => setLoadError(errorText(e)));
    api()
      .settings.get()
      .then((s) => {
        applyTheme(s.theme);
        setSettings(s);
      })
      .catch(() => undefined);
    const b = bridge();
    let was = true;
    return b
      ? b.onConnection((up) => {
          setConnected(up);
          if (up && !was) permissionRetry.current();
          was = up;
        })
      : undefined;
  }, []);

  useEffect(() => {
    if (!account) return;
    api()
      .inbox.unreadTotal()
      .then(setUnread, () => undefined);
    api()
      .credit.get()
      .then((c) => (c ? setCredit(c) : api().credit.refresh().then(setCredit)))
      .catch(() => undefined);
  }, [account]);

  // A new account object: the effects above run again (the child-account permission is asked again).
  // Issue 25: another account's banners and pending state go with it.
  useEvent('accounts:changed', (p) => {
    if (p.current?.id !== account?.id) {
      setPollError(null);
      setOpenConversation(null);
      setUnread(0);
      setCredit(null);
    }
    setAccount(p.current);
  });
  useEvent('settings:changed', (s) => {
    applyTheme(s.theme);
    setSettings(s);
    if (account) askPermission(account); // the user may have turned Accounts on or off
  });
  useEvent('credit:changed', setCredit);
  useEvent('inbox:received', (p) => {
    setUnread(p.unreadTotal);
    setPollError(null);
    // The web shell's notifications (Electron's come from the main process).
    if (bridge() && settings?.notifications !== false)
      notifyReceived(p.messages, (peer) => {
        setView('inbox');
        setOpenConversation({ peer });
      });
  });
  useEvent('inbox:open', ({ peer }) => {
    setView('inbox');
    setOpenConversation({ peer });
  });
  // The unread count in the window title: the tab's in a browser, the window's in Electron.
  useEffect(() => {
    document.title = windowTitle('Messenger', account ? unread : 0);
  }, [unread, account]);
  useEvent('inbox:pollFailed', (p) => setPollError(`${p.error} (retrying in ${p.retryInSeconds} s)`));

  const compose = useCallback((d: ComposeDraft | null) => {
    setDraft(d);
    setDraftKey((k) => k + 1);
    setView('compose');
  }, []);

  // The Electron menu's accelerators reach us as events (the keydown handler below covers browsers).
  // New message (menu, Ctrl+N) starts empty; the Compose item brings the saved draft back.
  useEvent('menu:compose', () => compose({}));
  useEvent('menu:search', () => {
    setView('inbox');
    setSearchFocus((n) => n + 1);
  });
  useEvent('menu:send', () => window.dispatchEvent(new Event(SEND_REQUEST_EVENT)));
  // "Check for updates" (menu) and 'updates:available' are the UpdateBanner's.

  const refreshUnread = useCallback(() => {
    api()
      .inbox.unreadTotal()
      .then(setUnread, () => undefined);
  }, []);

  // Keyboard: Ctrl/Cmd+N compose, Ctrl/Cmd+F search (Ctrl/Cmd+Enter send lives in Compose).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === 'n') {
        e.preventDefault();
        compose({});
      } else if (k === 'f') {
        e.preventDefault();
        setView('inbox');
        setSearchFocus((n) => n + 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [compose]);

  // The bridge is down: first "reconnecting", then (lostLong) what most likely happened and how to get in.
  const connectionLost = (
    <div role="alert" className="banner error" data-testid="connection-lost">
      {lostLong ? (
        <>
          <strong>The Messenger web shell has stopped or restarted.</strong> This tab cannot reach it any
          more. If it is running again, open the new <code>URL: …</code> line it printed in its terminal (each
          run has its own link; this tab's link no longer works). If it is not running, start it with{' '}
          <code>npm run web</code> and open the URL it prints. Still trying to reconnect…
        </>
      ) : (
        'Connection to the app lost — reconnecting…'
      )}
    </div>
  );

  if (loadError) {
    return (
      <main className="center-page">
        {/* A tab of an earlier run (its session refused) lands here: say what happened, not only the error. */}
        {!connected ? connectionLost : null}
        <ErrorText error={loadError} prefix="Could not reach the app: " />
      </main>
    );
  }
  if (account === undefined) {
    return (
      <main className="center-page" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  if (account === null) {
    return (
      <div className="signin-page">
        <PolicyBanner policy={policy} />
        <SignIn onSignedIn={setAccount} policy={policy} />
      </div>
    );
  }

  return (
    <div className={navCollapsed ? 'app nav-collapsed' : 'app'}>
      <nav className="sidebar" aria-label="Main">
        <div className="sidebar-top">
          <button
            type="button"
            className="nav-toggle"
            aria-expanded={!navCollapsed}
            aria-label={navCollapsed ? 'Show the menu' : 'Hide the menu'}
            title={navCollapsed ? 'Show the menu' : 'Hide the menu'}
            onClick={() => setNavCollapsed((c) => !c)}
          >
            ☰
            {navCollapsed && unread > 0 ? (
              <span className="badge" aria-label={`${unread} unread`}>
                {unread}
              </span>
            ) : null}
          </button>
          <div className="brand">Messenger</div>
        </div>
        <ul>
          {NAV.filter(
            (n) => (n.view !== 'children' || childrenPermitted) && (!n.sandboxOnly || account.sandbox),
          ).map((n) => (
            <li key={n.view}>
              <button
                type="button"
                className={view === n.view ? 'nav-item active' : 'nav-item'}
                aria-current={view === n.view ? 'page' : undefined}
                onClick={() => {
                  setOpenSend(null);
                  if (n.view === 'compose') compose(null);
                  else setView(n.view);
                  if (window.innerWidth < NARROW_WIDTH) setNavCollapsed(true);
                }}
              >
                <span>{n.label}</span>
                {n.view === 'inbox' && unread > 0 ? (
                  <span className="badge" aria-label={`${unread} unread`} data-testid="unread-badge">
                    {unread}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
        <CreditBadge credit={credit} onRefresh={setCredit} />
        <div className="account-line" title={account.primaryUrl}>
          {account.sandbox ? 'Local sandbox' : account.label || account.username}
        </div>
      </nav>
      {/* Issue 25: keyed by account: a view's state (an open campaign, a filter) never outlives it. */}
      <main className="content" key={account.id}>
        <AccountContext.Provider value={account}>
          <PolicyBanner policy={policy} />
          {!connected ? connectionLost : null}
          <UpdateBanner />
          <OfficeBanner />
          <HeldBanner />
          {pollError ? (
            <div role="status" className="banner warn">
              Checking for messages failed: {pollError}
            </div>
          ) : null}
          {view === 'inbox' &&
          bridge() &&
          settings?.notifications &&
          permission === 'default' &&
          !notifyAsked ? (
            <div role="status" className="banner notify-ask">
              <span>Get a notification when a reply arrives while this tab is in the background.</span>
              <span className="row">
                <button
                  type="button"
                  className="primary"
                  onClick={() =>
                    void askNotificationPermission().then((p) => {
                      setNotifyPermission(p);
                      setNotifyAsked(true);
                    })
                  }
                >
                  Turn on notifications
                </button>
                <button type="button" onClick={() => setNotifyAsked(true)}>
                  Not now
                </button>
              </span>
            </div>
          ) : null}
          {view === 'compose' ? <Compose key={draftKey} draft={draft} credit={credit} /> : null}
          {view === 'inbox' ? (
            <Inbox
              onUnreadChanged={refreshUnread}
              onCompose={compose}
              searchFocus={searchFocus}
              enterSends={settings?.enterSends ?? true}
              openConversation={openConversation}
              onOpenSend={(s) => {
                setOpenSend(s);
                setView('history');
              }}
            />
          ) : null}
          {view === 'contacts' ? <Contacts onCompose={compose} /> : null}
          {view === 'history' ? <History onCompose={compose} openSend={openSend} /> : null}
          {view === 'account' ? <Account account={account} onSignedOut={() => setAccount(null)} /> : null}
          {view === 'children' && childrenPermitted ? <ChildAccounts account={account} /> : null}
          {view === 'phone' && account.sandbox ? <Phone /> : null}
          {view === 'automation' ? <Automation /> : null}
        </AccountContext.Provider>
      </main>
    </div>
  );
}
