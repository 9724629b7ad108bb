// A local PostgreSQL for trying office mode on one machine (issue 28, docs/OFFICE.md):
//
//   npm run office-db -- start DIR [--port P]   initdb (first time) + pg_ctl start; prints the URL
//   npm run office-db -- stop DIR               pg_ctl stop
//
// Debian's `postgresql` package, no system service: the server runs from DIR on 127.0.0.1 (as the
// `postgres` user when started by root). The role `messenger` gets the password in
// MESSENGER_OFFICE_PASSWORD, or a new one printed once at each start (it is not stored anywhere):
// give it to each desk the same way (MESSENGER_OFFICE_PASSWORD=… npm run web -- --office URL).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalPostgres, stopLocalPostgres } from '../main/office/local-server.ts';
import { OFFICE_PASSWORD_ENV } from '../main/office/connection.ts';

const USAGE = 'usage: npm run office-db -- start DIR [--port P] | stop DIR\n';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const [command, dir] = positionals;
  if (values.help || dir === undefined || (command !== 'start' && command !== 'stop')) {
    process.stderr.write(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  if (command === 'stop') {
    const stopped = await stopLocalPostgres(resolve(dir));
    process.stdout.write(stopped ? `stopped ${resolve(dir)}\n` : `no server runs in ${resolve(dir)}\n`);
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535))
    throw new Error(`--port must be 1 to 65535, not ${values.port}`);
  const given = process.env[OFFICE_PASSWORD_ENV];
  const server = await startLocalPostgres(resolve(dir), {
    ...(port !== undefined ? { port } : {}),
    ...(given !== undefined && given !== '' ? { password: given } : {}),
  });
  process.stdout.write(`PostgreSQL runs in ${server.dataDir} (log: ${server.dataDir}/server.log)\n`);
  process.stdout.write(`URL: ${server.url}\n`);
  if (given === undefined || given === '')
    process.stdout.write(`password (set for this start only, not stored): ${server.password}\n`);
  process.stdout.write(
    `each desk: ${OFFICE_PASSWORD_ENV}=… npm run web -- --office ${server.url} --data DESK_DIR\n` +
      `stop it: npm run office-db -- stop ${dir}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
