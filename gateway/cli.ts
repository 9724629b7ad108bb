// `npm run gateway -- <command>`: run the reference gateway and administer its accounts.
// Every command takes --data DIR (default: the user's data folder, see defaultDataDir).
import { SENDSMS5_PROFILE } from '../protocol/soap/namespaces.ts';
import type { SoapProfile } from '../protocol/soap/namespaces.ts';
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { OPERATION_PATHS } from '../protocol/fields.ts';
import { LIMITS } from '../protocol/limits.ts';
import { SOAP_PATHS } from '../protocol/soap/namespaces.ts';
import { openGatewayDb } from './store/db.ts';
import { AccountError, adjustCredit, createAccount, getAccount, listAccounts } from './accounts.ts';
import { formatMoney, parseMoney } from './credit.ts';
import { importAddressBook, parseAddressBookCsv } from './address-books.ts';
import { createDemoAccount } from './demo.ts';
import { startGateway } from './server.ts';
import type { RunningGateway } from './server.ts';
import { DEFAULT_RELEASE } from './server.ts';
import { ReleaseError, releaseFromFlags, setStoredRelease, storedRelease } from './release.ts';

/** The shortest PIN `account add` accepts (the spec sets only the longest, LIMITS.pinMax). */
export const MIN_PIN_LENGTH = 8;
export const PIN_ENV = 'GATEWAY_PIN';

/** A line read from the terminal without echo; undefined when there is no terminal. */
async function promptHidden(question: string): Promise<string | undefined> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  let muted = false;
  out._writeToOutput = (s: string) => {
    if (!muted) process.stderr.write(s);
  };
  try {
    return await new Promise<string>((resolve) => {
      rl.question(question, resolve);
      muted = true;
    });
  } finally {
    process.stderr.write('\n');
    rl.close();
  }
}

export interface CliIo {
  env?: NodeJS.ProcessEnv;
  promptPin?: () => Promise<string | undefined>;
}

const USAGE = `Usage: npm run gateway -- <command> [options]

Commands:
  serve [--port 8080] [--secondary-port 8081] [--host 127.0.0.1] [--sandbox] [--receipt-delay-ms 2000]
        Start the gateway (and a secondary instance on the same data directory when --secondary-port is given).
        With --sandbox on an empty data directory a demo account is created and its credentials printed.
        [--release-version 2.0.0 --release-url https://… --release-notice TEXT --release-date 2026-11-20T09:00:00Z]
        The release MobileMessengerVersion serves (unless one is stored with release set).
        [--soap-namespace URI --soap-types-namespace URI]
        Namespaces of /sendsms5 and its WSDL (default: the provider's ${SENDSMS5_PROFILE.namespace}
        and ${SENDSMS5_PROFILE.typesNamespace}; /sendsms2 keeps its own).
  release set --release-version V --release-url URL [--release-notice TEXT] [--release-date ISO]
        Store the release served from now on (wins over the serve flags; a running gateway serves it at once).
  release show
  account add --username U [--credit 10.00] [--restricted] [--reply-to N,..] [--number N] [--push-url URL]
        The PIN (${MIN_PIN_LENGTH} to ${LIMITS.pinMax} letters and digits) comes from GATEWAY_PIN or a hidden
        prompt, never a flag (a flag is visible to every user in ps and stays in shell history).
  account list
  account top-up --username U --credit 5.00
  address-book import --username U --book NAME --file contacts.csv [--country GB]
        CSV with a header row: number (or msisdn/phone/mobile), name, groups (separated by ; or |).

Every command takes --data DIR (default: ${defaultDataDir()}).
`;

/** The user's data folder: XDG_DATA_HOME (or ~/.local/share), %APPDATA%, ~/Library/Application Support. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const name = 'messenger-gateway';
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), name);
}

class UsageError extends Error {}

function money(text: string | undefined, flag: string): number {
  const v = parseMoney(text ?? '');
  if (v === null)
    throw new UsageError(`${flag} must be an amount in GBP with at most 4 decimals, e.g. 10.00`);
  return v;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

export async function main(
  argv: string[],
  out: (s: string) => void = (s) => process.stdout.write(s + '\n'),
  io: CliIo = {},
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      data: { type: 'string' },
      port: { type: 'string' },
      'secondary-port': { type: 'string' },
      host: { type: 'string' },
      sandbox: { type: 'boolean' },
      'receipt-delay-ms': { type: 'string' },
      username: { type: 'string' },
      pin: { type: 'string' },
      credit: { type: 'string' },
      restricted: { type: 'boolean' },
      'reply-to': { type: 'string' },
      number: { type: 'string' },
      'push-url': { type: 'string' },
      book: { type: 'string' },
      file: { type: 'string' },
      country: { type: 'string' },
      'release-version': { type: 'string' },
      'release-notice': { type: 'string' },
      'release-url': { type: 'string' },
      'release-date': { type: 'string' },
      'soap-namespace': { type: 'string' },
      'soap-types-namespace': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const dataDir = values.data ?? defaultDataDir();
  const [cmd, sub] = positionals;
  if (values.help || !cmd || cmd === 'help') {
    out(USAGE);
    return cmd || values.help ? 0 : 1;
  }

  if (cmd === 'serve') return serve(values, dataDir, out);

  const db = openGatewayDb(dataDir);
  try {
    if (cmd === 'account' && sub === 'add') {
      const username = required(values.username, '--username');
      if (values.pin !== undefined)
        throw new UsageError(
          `--pin is not accepted: other users can read it in ps and it stays in shell history; set ${PIN_ENV} or answer the prompt`,
        );
      let pin = (io.env ?? process.env)[PIN_ENV];
      if (pin === undefined || pin === '') pin = await (io.promptPin ?? (() => promptHidden('PIN: ')))();
      if (pin === undefined || pin === '')
        throw new UsageError(`no PIN: set ${PIN_ENV} or run in a terminal to be asked for it`);
      if (!/^[A-Za-z0-9.]+$/.test(username) || username.length > LIMITS.usernameMax)
        throw new UsageError(`--username: letters, digits and dots, at most ${LIMITS.usernameMax}`);
      if (!/^[A-Za-z0-9]+$/.test(pin) || pin.length < MIN_PIN_LENGTH || pin.length > LIMITS.pinMax)
        throw new UsageError(`the PIN: ${MIN_PIN_LENGTH} to ${LIMITS.pinMax} letters and digits`);
      const account = createAccount(db, {
        username,
        pin,
        credit: money(values.credit ?? '0', '--credit'),
        restricted: values.restricted ?? false,
        replyTo: (values['reply-to'] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        number: values.number ?? null,
        pushUrl: values['push-url'] ?? null,
      });
      out(`account ${account.username} created (id ${account.id}) in ${dataDir}`);
      return 0;
    }
    if (cmd === 'account' && sub === 'list') {
      const rows = listAccounts(db);
      if (rows.length === 0) out(`no accounts in ${dataDir}`);
      for (const a of rows) {
        const flags = [
          a.childType ? `${a.childType} child of #${a.parentId}` : null,
          a.restricted ? 'manageaccount' : null,
          a.number ? `number ${a.number}` : null,
          a.pushUrl ? `push ${a.pushUrl}` : null,
          a.replyTo.length ? `reply-to ${a.replyTo.join(',')}` : null,
        ].filter(Boolean);
        out(`${a.username}\tGBP ${formatMoney(a.credit)}${flags.length ? '\t' + flags.join('; ') : ''}`);
      }
      return 0;
    }
    if (cmd === 'account' && sub === 'top-up') {
      const account = getAccount(db, required(values.username, '--username'));
      if (!account) throw new UsageError(`no account ${values.username}`);
      const balance = adjustCredit(db, account.id, money(values.credit, '--credit'));
      out(`${account.username}: credit now GBP ${formatMoney(balance)}`);
      return 0;
    }
    if (cmd === 'release' && sub === 'set') {
      const given = releaseFromFlags(values);
      required(given.version, '--release-version');
      required(given.downloadUrl, '--release-url');
      const release = { ...DEFAULT_RELEASE, releaseDate: new Date().toISOString(), ...given };
      setStoredRelease(db, release);
      out(`release ${release.version} (${release.releaseDate}) stored in ${dataDir}: ${release.downloadUrl}`);
      return 0;
    }
    if (cmd === 'release' && sub === 'show') {
      const r = storedRelease(db);
      out(
        r
          ? `${r.version}\t${r.releaseDate}\t${r.downloadUrl}\t${r.releaseNotice}`
          : `no stored release in ${dataDir} (the serve flags or the default apply)`,
      );
      return 0;
    }
    if (cmd === 'address-book' && sub === 'import') {
      const account = getAccount(db, required(values.username, '--username'));
      if (!account) throw new UsageError(`no account ${values.username}`);
      const book = required(values.book, '--book');
      const csv = readFileSync(required(values.file, '--file'), 'utf8');
      const result = importAddressBook(db, account, book, parseAddressBookCsv(csv), values.country);
      out(`${result.imported} contacts imported into ${account.username}'s address book ${book}`);
      for (const r of result.rejected) out(`  row ${r.line}: ${r.input || '(empty)'}: ${r.reason}`);
      return result.rejected.length > 0 && result.imported === 0 ? 1 : 0;
    }
    throw new UsageError(`unknown command: ${positionals.join(' ')}`);
  } finally {
    db.close();
  }
}

/** --soap-namespace / --soap-types-namespace over the provider's pair; each must be an absolute URI. */
export function soapProfileFromFlags(values: Record<string, string | boolean | undefined>): SoapProfile {
  const pick = (flag: string, fallback: string): string => {
    const v = values[flag];
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(v))
      throw new UsageError(`--${flag} must be an absolute URI`);
    return v;
  };
  return {
    namespace: pick('soap-namespace', SENDSMS5_PROFILE.namespace),
    typesNamespace: pick('soap-types-namespace', SENDSMS5_PROFILE.typesNamespace),
  };
}

async function serve(
  values: Record<string, string | boolean | undefined>,
  dataDir: string,
  out: (s: string) => void,
): Promise<number> {
  const port = Number(values.port ?? 8080);
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const sandbox = values.sandbox === true;
  const receiptDelayMs = values['receipt-delay-ms'] ? Number(values['receipt-delay-ms']) : undefined;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0..65535');

  const release = releaseFromFlags(values);
  const common = {
    dataDir,
    host,
    sandbox,
    release,
    soapProfile: soapProfileFromFlags(values),
    ...(receiptDelayMs !== undefined ? { receiptDelayMs } : {}),
  };
  const instances: RunningGateway[] = [await startGateway({ ...common, port, instance: 'primary' })];
  if (values['secondary-port'] !== undefined) {
    instances.push(
      await startGateway({ ...common, port: Number(values['secondary-port']), instance: 'secondary' }),
    );
  }
  const [primary, secondary] = instances;
  // On an empty data directory, --sandbox creates the demo account once the gateway listens (issue
  // 23: created before, it was kept even when the port was taken, and its PIN never printed).
  let demo: { username: string; pin: string } | null = null;
  if (sandbox) {
    const db = primary!.ctx.db;
    const n = (db.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
    if (n === 0) demo = createDemoAccount(db);
  }
  out(`Messaging gateway running (data: ${dataDir})`);
  out(`  primary:    ${primary!.url}`);
  if (secondary) out(`  secondary:  ${secondary.url}`);
  out(`  sendsms:    ${primary!.url}${OPERATION_PATHS.sendsms}`);
  out(
    `  SOAP:       ${primary!.url}${SOAP_PATHS.sendsms5}   WSDL: ${primary!.url}${SOAP_PATHS.sendsms5}?wsdl`,
  );
  if (sandbox) out(`  sandbox:    ${primary!.url}/sandbox/outbound, POST ${primary!.url}/sandbox/inbound`);
  if (demo) {
    out('Demo account created:');
    out(`  Username: ${demo.username}`);
    out(`  PIN:      ${demo.pin}`);
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  for (const i of instances.reverse()) await i.close();
  return 0;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      if (err instanceof UsageError || err instanceof AccountError || err instanceof ReleaseError) {
        process.stderr.write(`error: ${err.message}\n\n${USAGE}`);
        process.exitCode = 2;
      } else if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
        process.stderr.write(`error: ${err.message}\n\n${USAGE}`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      }
    },
  );
}
