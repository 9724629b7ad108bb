import { useState, type FormEvent } from 'react';
import type { AccountSummary, EffectivePolicy, SignInRequest } from '../../domain/index.ts';
import { LIMITS } from '../../protocol/limits.ts';
import { api, bridge } from '../api.ts';
import { useDialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';

/**
 * First start: sign in to a gateway account, or use the local sandbox. The deploy policy may
 * prefill the gateway URLs (locked: read-only) and may not offer the sandbox.
 */
export function SignIn({
  onSignedIn,
  policy = null,
}: {
  onSignedIn: (a: AccountSummary) => void;
  policy?: EffectivePolicy | null;
}) {
  const [username, setUsername] = useState('');
  const [pin, setPin] = useState('');
  const [primaryTyped, setPrimaryUrl] = useState<string | null>(null);
  const [secondaryTyped, setSecondaryUrl] = useState<string | null>(null);
  // In a browser (web shell) there is no OS keyring to keep the PIN in: off by default there.
  const [remember, setRemember] = useState(bridge() === null);
  const locked = policy?.gateway.locked === true && policy.gateway.primaryUrl !== null;
  const offerSandbox = policy?.offerSandbox ?? true;
  // What the user typed (null: untouched), over the policy's URLs; locked URLs are the policy's.
  const g = policy?.gateway;
  const primaryUrl = locked ? (g?.primaryUrl ?? '') : (primaryTyped ?? g?.primaryUrl ?? '');
  const secondaryUrl = locked ? (g?.secondaryUrl ?? '') : (secondaryTyped ?? g?.secondaryUrl ?? '');

  const dialog = useDialog();
  const signIn = useAction(async (request: SignInRequest) => {
    try {
      onSignedIn(await api().accounts.signIn(request));
    } catch (e) {
      // Issue 17: plain http to another machine sends the PIN in clear: only when the user says so.
      if ((e as { code?: unknown }).code !== 'insecure-gateway' || request.sandbox === true) throw e;
      const yes = await dialog.confirm({
        title: 'Sign in without encryption?',
        message: `${(e as Error).message}.`,
        confirmLabel: 'Sign in unencrypted',
        danger: true,
      });
      if (!yes) return;
      onSignedIn(await api().accounts.signIn({ ...request, acceptInsecureGateway: true }));
    }
  });
  const { busy, error } = signIn;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void signIn.run({
      username: username.trim(),
      pin,
      primaryUrl: primaryUrl.trim(),
      ...(secondaryUrl.trim() ? { secondaryUrl: secondaryUrl.trim() } : {}),
      rememberPin: remember,
    });
  };

  return (
    <main className="center-page">
      <div className="card signin">
        <h1>Welcome to Messenger</h1>
        <p className="muted">
          {offerSandbox
            ? 'Sign in to your Messaging Gateway account, or try everything against a local sandbox.'
            : 'Sign in to your Messaging Gateway account.'}
        </p>
        {offerSandbox ? (
          <>
            <button
              type="button"
              className="primary wide"
              disabled={busy}
              onClick={() => void signIn.run({ sandbox: true })}
            >
              Use local sandbox
            </button>
            <div className="divider">or</div>
          </>
        ) : null}
        <form onSubmit={submit} aria-label="Sign in to a gateway">
          <label>
            Username
            <input
              value={username}
              maxLength={LIMITS.usernameMax}
              required
              autoComplete="username"
              onChange={(e) => setUsername(e.target.value)}
            />
          </label>
          <label>
            PIN
            <input
              type="password"
              value={pin}
              maxLength={LIMITS.pinMax}
              required
              autoComplete="current-password"
              onChange={(e) => setPin(e.target.value)}
            />
          </label>
          <label>
            Gateway URL
            <input
              type="url"
              value={primaryUrl}
              required
              readOnly={locked}
              aria-describedby={locked ? 'locked-note' : undefined}
              placeholder="https://gateway.example.com"
              onChange={(e) => setPrimaryUrl(e.target.value)}
            />
          </label>
          <label>
            Secondary gateway URL (optional)
            <input
              type="url"
              value={secondaryUrl}
              readOnly={locked}
              aria-describedby={locked ? 'locked-note' : undefined}
              onChange={(e) => setSecondaryUrl(e.target.value)}
            />
          </label>
          {locked ? (
            <p id="locked-note" className="locked-note">
              The gateway is set by your administrator&apos;s deploy policy.
            </p>
          ) : null}
          <label className="check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />{' '}
            Remember the PIN
          </label>
          <ErrorText error={error} />
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
