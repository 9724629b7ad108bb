// A PostgreSQL server of its own for trying office mode on one machine and for the tests
// (`npm run office-db -- start DIR`, test/support/office-db.ts): Debian's `postgresql` package's
// initdb + pg_ctl in a data folder, no system service. PostgreSQL refuses to run as root: as root
// every command runs as the `postgres` user (runuser), who then owns the data folder.
//
// The cluster listens on 127.0.0.1 only (plus a Unix socket inside the data folder, 0700, used
// only to set the password). Its one role, `messenger`, signs in over TCP with SCRAM-SHA-256;
// the password is given (MESSENGER_OFFICE_PASSWORD, tests) or made up at each start, set through
// the socket and never written to disk by this module.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const LOCAL_ROLE = 'messenger';
export const LOCAL_DATABASE = 'messenger';
const RUN_AS = 'postgres';

export interface LocalPostgres {
  /** postgres://messenger@127.0.0.1:PORT/messenger (no password). */
  url: string;
  password: string;
  port: number;
  dataDir: string;
  /** Stops the server (pg_ctl stop -m fast; `immediate`: like a crash). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
}

/** The bin folder of the newest PostgreSQL Debian installs (/usr/lib/postgresql/N/bin), or PG_BIN. */
export function postgresBin(env: Record<string, string | undefined> = process.env): string | null {
  if (env.PG_BIN !== undefined && existsSync(join(env.PG_BIN, 'initdb'))) return env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(base, versions[0], 'bin');
}

const asRoot = (): boolean => process.getuid?.() === 0;

function run(cmd: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot() ? ['runuser', ['-u', RUN_AS, '--', cmd, ...args]] : [cmd, args];
  return new Promise((resolveRun, reject) => {
    // stdin ignored, output collected (pg_ctl's server log goes to its -l file)
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolveRun(out)
        : reject(new Error(`${cmd} ${args[0] ?? ''} failed (${code}): ${out.trim()}`)),
    );
  });
}

/** A port free on 127.0.0.1 right now (the server is then started on it). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      s.close(() => resolvePort(port));
    });
  });
}

/** Makes `dir` (created if needed) the postgres user's when running as root. */
function ownFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (!asRoot()) return;
  const ids = postgresIds();
  chownSync(dir, ids.uid, ids.gid);
}

/** The postgres user's uid and gid (/etc/passwd: name:x:uid:gid:…). */
function postgresIds(): { uid: number; gid: number } {
  const line = (
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${RUN_AS}:`)) ?? ''
  ).split(':');
  if (line.length < 4)
    throw new Error(`running as root needs the "${RUN_AS}" user (Debian's postgresql package)`);
  return { uid: Number(line[2]), gid: Number(line[3]) };
}

/** Whether `dir` holds a cluster already (initdb ran). */
export function isCluster(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/**
 * Starts PostgreSQL on `dataDir` (initdb first when the folder holds no cluster) on `port` (a free
 * one by default) and sets the `messenger` role's password (`password`, or a new random one).
 */
export async function startLocalPostgres(
  dataDir: string,
  opts: {
    port?: number;
    password?: string;
    env?: Record<string, string | undefined>;
    /** Serve TLS too with this certificate and key (PEM; written into the data folder, 0600). */
    tls?: { cert: string; key: string };
  } = {},
): Promise<LocalPostgres> {
  const bin = postgresBin(opts.env);
  if (bin === null)
    throw new Error('PostgreSQL is not installed: apt-get install postgresql (Debian) or set PG_BIN');
  const dir = resolve(dataDir);
  if (!isCluster(dir)) {
    if (existsSync(dir) && readdirSync(dir).length > 0)
      throw new Error(`${dir} is neither empty nor a PostgreSQL data folder`);
    ownFolder(dir);
    await run(join(bin, 'initdb'), [
      '-D',
      dir,
      '-U',
      LOCAL_ROLE,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
  } else if (asRoot() && statSync(dir).uid !== postgresIds().uid) {
    throw new Error(`${dir} is not owned by the ${RUN_AS} user`);
  }
  const port = opts.port ?? (await freePort());
  const password = opts.password ?? randomBytes(18).toString('base64url');
  let options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  if (opts.tls) {
    for (const [name, pem] of [
      ['server.crt', opts.tls.cert],
      ['server.key', opts.tls.key],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, pem, { mode: 0o600 });
      chmodSync(file, 0o600);
      if (asRoot()) chownSync(file, postgresIds().uid, postgresIds().gid);
    }
    options += ' -c ssl=on';
  }
  await run(join(bin, 'pg_ctl'), [
    '-D',
    dir,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    options,
    'start',
  ]);
  const stop = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => {
    await run(join(bin, 'pg_ctl'), ['-D', dir, '-m', mode, '-w', '-t', '60', 'stop']);
  };
  try {
    // Through the socket (trust, only the postgres user and root reach the 0700 folder).
    const c = new pg.Client({ host: dir, port, user: LOCAL_ROLE, database: 'postgres' });
    // an error the server sends between two queries (it is stopped meanwhile) is emitted on the
    // client: kept off the process's uncaught exceptions; a query it cuts rejects
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query("SET password_encryption = 'scram-sha-256'");
      // a role's password cannot be a bind parameter: escapeLiteral quotes it
      await c.query(`ALTER ROLE ${LOCAL_ROLE} PASSWORD ${c.escapeLiteral(password)}`);
      const has = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [LOCAL_DATABASE]);
      if (has.rowCount === 0) await c.query(`CREATE DATABASE ${LOCAL_DATABASE} OWNER ${LOCAL_ROLE}`);
    } finally {
      await c.end().catch(() => undefined);
    }
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  return {
    url: `postgres://${LOCAL_ROLE}@127.0.0.1:${port}/${LOCAL_DATABASE}`,
    password,
    port,
    dataDir: dir,
    stop,
  };
}

/** Stops the server of `dataDir` when one runs there. */
export async function stopLocalPostgres(
  dataDir: string,
  env?: Record<string, string | undefined>,
): Promise<boolean> {
  const bin = postgresBin(env);
  if (bin === null) throw new Error('PostgreSQL is not installed');
  const dir = resolve(dataDir);
  if (!existsSync(join(dir, 'postmaster.pid'))) return false;
  await run(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  return true;
}
