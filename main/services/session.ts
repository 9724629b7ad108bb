// The gateway session: sign in (a real gateway, checked with AvailableCredit first, or the local
// sandbox), resume at start (PIN from this run, the keyring or MESSENGER_PIN), sign out, change PIN.
// The one place that makes a GatewayClient (`openClient`). The other services learn of a session
// through their sessionReady / sessionEnded hooks, called in the order given.
import { GatewayClient } from '../client/gateway-client.ts';
import { ValidationError } from '../client/results.ts';
import type { AppStore } from '../store/app-store.ts';
import { insecureGatewayUrls } from '../store/accounts.ts';
import { BASIC_TEXT_MESSAGE, MemoryPins, NO_KEYRING_MESSAGE, NO_SECRET_STORE } from './secrets.ts';
import type { SecretStore } from './secrets.ts';
import { signInRefusal } from './deploy-policy.ts';
import { ApiError } from './validate-args.ts';
import { message } from './app-options.ts';
import type { Emit, Log } from './app-options.ts';
import type { Sandbox } from './sandbox.ts';
import type { MessengerApi } from '../../preload/api.ts';
import type { AccountSummary, EffectivePolicy, SignInRequest } from '../../domain/index.ts';

export interface Session {
  account: AccountSummary;
  pin: string;
  client: GatewayClient;
}

/** What a service does when a session starts or ends (updates.ts has the same two). */
export interface SessionHooks {
  sessionReady?(session: Session): void | Promise<void>;
  /** `next`: the account signing in next (the same one when only the PIN changed), none on sign-out. */
  sessionEnded?(session: Session, next?: AccountSummary): void | Promise<void>;
}

export interface SessionDeps {
  store: AppStore;
  policy: EffectivePolicy;
  secrets?: SecretStore | undefined;
  env: Record<string, string | undefined>;
  emit: Emit;
  log: Log;
  country(): string | undefined;
  sandbox: { ensure(): Promise<Sandbox> };
  /** The other services' hooks, in order. */
  hooks(): SessionHooks[];
  /** The balance after a sign-in (credit.ts). */
  refreshCredit(): Promise<unknown>;
  /** Resolves when no request of the sending loop is under way (a client closes only after it). */
  whenIdle(): Promise<void>;
}

export const SANDBOX_REFUSED = 'the deploy policy of this computer does not offer the local sandbox';

/** A client for `login` at a gateway's URLs: the app's one GatewayClient factory. */
export function openClient(
  at: { primaryUrl: string; secondaryUrl?: string | null | undefined },
  login: { username: string; pin: string },
  defaultCountry?: string,
  soapTypesNamespace?: string,
): GatewayClient {
  return new GatewayClient({
    // pinned by the deploy policy or a setting; otherwise the client reads the gateway's WSDL
    ...(soapTypesNamespace ? { soapTypesNamespace } : {}),
    primaryUrl: at.primaryUrl,
    ...(at.secondaryUrl !== undefined && at.secondaryUrl !== null && at.secondaryUrl !== ''
      ? { secondaryUrl: at.secondaryUrl }
      : {}),
    username: login.username,
    pin: login.pin,
    ...(defaultCountry !== undefined ? { defaultCountry } : {}),
  });
}

/** Whether `next` is the same account on the same gateway as `ended` (the PIN changed). */
export function sameGateway(ended: AccountSummary, next: AccountSummary | undefined): boolean {
  return (
    next !== undefined &&
    next.id === ended.id &&
    next.primaryUrl === ended.primaryUrl &&
    next.secondaryUrl === ended.secondaryUrl
  );
}

export function createSessions(deps: SessionDeps) {
  const { store, policy, env, log } = deps;
  const secrets = deps.secrets ?? NO_SECRET_STORE;
  /** The SOAP types namespace pinned by the deploy policy, else by the setting; undefined = learn it. */
  const pinnedSoap = (): string | undefined =>
    policy.soapTypesNamespace ?? (store.settings.get().soapTypesNamespace || undefined);
  const pins = new MemoryPins();
  let session: Session | null = null;
  let closed = false;
  const clientCloses: Array<Promise<void>> = [];

  /** Ends the session; `next` is the account signing in next (the same one: the PIN changed). */
  async function endSession(next?: AccountSummary): Promise<void> {
    const s = session;
    session = null;
    if (!s) return;
    for (const h of deps.hooks()) await h.sessionEnded?.(s, next);
    // A request of the sending loop may be under way with this client: it finishes (the loop stops
    // after it, seeing no session) before the client closes, so the batch is not made unknown.
    clientCloses.push(
      deps
        .whenIdle()
        .finally(() => s.client.close())
        .catch(() => undefined),
    );
  }

  async function openSession(account: AccountSummary, pin: string): Promise<Session> {
    await endSession(account);
    // A sign-in already past its checks when the app closes opens nothing that close() would miss.
    if (closed) throw new ApiError('closed', 'the app is shutting down');
    const client = openClient(account, { username: account.username, pin }, deps.country(), pinnedSoap());
    const s: Session = { account, pin, client };
    session = s;
    for (const h of deps.hooks()) await h.sessionReady?.(s);
    return s;
  }

  function requireSession(): Session {
    if (session) return session;
    const current = store.accounts.current();
    if (current) {
      throw new ApiError(
        'pin-required',
        `signed in as ${current.username}, but ${current.pinStored ? 'the stored PIN could not be read' : NO_KEYRING_MESSAGE}`,
      );
    }
    throw new ApiError('not-signed-in', 'sign in to a gateway account or choose the local sandbox first');
  }

  async function signInSandbox(): Promise<AccountSummary> {
    const sb = await deps.sandbox.ensure();
    const existing = store.accounts.list().find((a) => a.sandbox && a.username === sb.username);
    // The sandbox listens on a new port after a restart when the old one was taken.
    if (existing && existing.primaryUrl !== sb.url) store.accounts.setPrimaryUrl(existing.id, sb.url);
    const account =
      store.accounts.get(existing?.id ?? '') ??
      store.accounts.save({
        label: 'Local sandbox',
        username: sb.username,
        primaryUrl: sb.url,
        sandbox: true,
      });
    store.accounts.setCurrent(account.id);
    pins.set(account.id, sb.pin);
    await openSession(account, sb.pin);
    return account;
  }

  function finishSignIn(account: AccountSummary): AccountSummary {
    deps.emit('accounts:changed', { current: account });
    void deps.refreshCredit().catch((err: unknown) => log(`credit not fetched: ${message(err)}`));
    return account;
  }

  /** Checks the credentials with a harmless query (AvailableCredit) before anything is saved. */
  async function probe(
    at: { primaryUrl: string; secondaryUrl?: string | null | undefined },
    login: { username: string; pin: string },
    refused: (reason: string) => ApiError,
    unavailable: (reason: string) => ApiError,
  ): Promise<void> {
    const client = openClient(at, login, undefined, pinnedSoap());
    try {
      const r = await client.availableCredit();
      if (r.outcome === 'rejected') throw refused(r.reason);
      if (r.outcome !== 'ok') throw unavailable(r.reason);
    } catch (err) {
      if (err instanceof ValidationError) throw new ApiError('invalid-request', err.message, err.problems);
      throw err;
    } finally {
      await client.close();
    }
  }

  async function signIn(req: SignInRequest): Promise<AccountSummary> {
    if (req.sandbox === true) {
      if (!policy.offerSandbox) throw new ApiError('policy', SANDBOX_REFUSED);
      return finishSignIn(await signInSandbox());
    }
    const refusal = signInRefusal(policy, req);
    if (refusal !== null) throw new ApiError('policy', refusal);
    if (policy.gateway.locked && policy.gateway.primaryUrl !== null) {
      // Locked: the policy's URLs, whatever the form sent (a secondary only from the policy).
      req = {
        ...req,
        primaryUrl: policy.gateway.primaryUrl,
        ...(policy.gateway.secondaryUrl !== null ? { secondaryUrl: policy.gateway.secondaryUrl } : {}),
      };
      if (policy.gateway.secondaryUrl === null) delete req.secondaryUrl;
    }
    if (req.pin === '') throw new ApiError('bad-argument', 'the PIN is empty');
    // Issue 17: never send the PIN in clear without the user's (or the administrator's) word.
    const clear = insecureGatewayUrls([req.primaryUrl, req.secondaryUrl]);
    if (clear.length > 0 && !policy.allowInsecureGateways && req.acceptInsecureGateway !== true)
      throw new ApiError(
        'insecure-gateway',
        `${clear.join(' and ')} ${clear.length > 1 ? 'are' : 'is'} plain http: the PIN and every message would travel unencrypted, readable by anyone on the network. Use https, or confirm to sign in anyway`,
      );
    if (req.rememberPin && secrets.backend === 'none') {
      throw new ApiError(
        'no-keyring',
        secrets === NO_SECRET_STORE
          ? NO_KEYRING_MESSAGE
          : 'the PIN cannot be stored: the operating system offers no encryption for saved secrets right now; sign in without remembering it to keep it in memory for this run only',
      );
    }
    if (req.rememberPin && secrets.backend === 'basic_text' && req.acceptPlainTextStorage !== true) {
      throw new ApiError('basic-text-keyring', BASIC_TEXT_MESSAGE);
    }
    await probe(
      req,
      req,
      (reason) => new ApiError('invalid-login', `the gateway refused the sign-in: ${reason}`),
      (reason) => new ApiError('gateway-unavailable', `the gateway could not be reached: ${reason}`),
    );
    const account = store.accounts.save({
      username: req.username,
      primaryUrl: req.primaryUrl,
      secondaryUrl: req.secondaryUrl ?? null,
      ...(req.label !== undefined ? { label: req.label } : {}),
    });
    store.accounts.setCurrent(account.id);
    pins.set(account.id, req.pin);
    store.accounts.storeEncryptedPin(account.id, req.rememberPin ? await secrets.encrypt(req.pin) : null);
    const saved = store.accounts.get(account.id) ?? account;
    await openSession(saved, req.pin);
    return finishSignIn(saved);
  }

  /** At start: the current account's session, with the PIN from this run, the keyring or MESSENGER_PIN. */
  async function resumeSession(): Promise<void> {
    const current = store.accounts.current();
    if (!current) return;
    const refusal = current.sandbox
      ? policy.offerSandbox
        ? null
        : SANDBOX_REFUSED
      : signInRefusal(policy, current);
    if (refusal !== null) {
      // The policy changed since this account signed in: signed out, the user signs in again.
      store.accounts.setCurrent(null);
      log(`signed out of ${current.username}: ${refusal}`);
      return;
    }
    if (current.sandbox) {
      finishSignIn(await signInSandbox());
      return;
    }
    let pin = pins.get(current.id);
    const encrypted = store.accounts.encryptedPin(current.id);
    if (pin === undefined && encrypted !== null && secrets.backend !== 'none') {
      try {
        pin = await secrets.decrypt(encrypted);
      } catch (err) {
        log(`stored PIN not readable: ${message(err)}`);
      }
    }
    pin ??= env.MESSENGER_PIN;
    if (pin === undefined || pin === '') {
      log(`signed in as ${current.username}, but no PIN: ${NO_KEYRING_MESSAGE}`);
      return;
    }
    pins.set(current.id, pin);
    await openSession(current, pin);
    void deps.refreshCredit().catch((err: unknown) => log(`credit not fetched: ${message(err)}`));
  }

  const api: MessengerApi['accounts'] = {
    list: async () => store.accounts.list(),
    current: async () => store.accounts.current(),
    signIn,
    signOut: async () => {
      const current = store.accounts.current();
      if (current) pins.delete(current.id);
      store.accounts.setCurrent(null);
      await endSession();
      deps.emit('accounts:changed', { current: null });
    },
    changePin: async ({ oldPin, newPin }) => {
      // The gateway has no PIN-change operation (spec 4.4): the PIN is changed with the provider;
      // here the app learns the new one, checked against the gateway before it replaces the old.
      const s = requireSession();
      if (oldPin !== s.pin) throw new ApiError('invalid-login', 'the old PIN is not the one in use');
      const notTaken = (reason: string): ApiError =>
        new ApiError('invalid-login', `the gateway does not take the new PIN: ${reason}`);
      await probe(s.account, { username: s.account.username, pin: newPin }, notTaken, notTaken);
      pins.set(s.account.id, newPin);
      if (s.account.pinStored) store.accounts.storeEncryptedPin(s.account.id, await secrets.encrypt(newPin));
      await openSession(s.account, newPin);
    },
  };

  return {
    api,
    current: (): Session | null => session,
    require: requireSession,
    /** A client for another account (a child) on the signed-in account's gateway. */
    clientFor(username: string, pin: string): GatewayClient {
      return openClient(requireSession().account, { username, pin }, undefined, pinnedSoap());
    },
    /** At start: the sandbox when asked, else the current account's session. */
    async start(sandbox: boolean): Promise<void> {
      if (sandbox) await signIn({ sandbox: true });
      else await resumeSession();
    },
    async close(): Promise<void> {
      closed = true;
      await endSession();
      await Promise.all(clientCloses);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
