// Command-line client for scripts and admins, on the same GatewayClient as the app.
// `npm run cli -- <command> [options]`, or the package bin `messenger`. Run `… help` for usage.
//
// Exit codes: 0 every recipient accepted / operation succeeded; 1 any recipient failed or the gateway
// refused; 2 usage or validation error (nothing was sent); 3 unknown: a request may or may not have
// been processed (it was not sent again; check before resending).
//
// The commands live in main/cli/: args.ts (usage, options, exit codes), send.ts (send, send-mms),
// child.ts (child accounts), address-book.ts (server address books), inbox.ts, output.ts (tables,
// results, progress), files.ts (files, PIN prompt).
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { GatewayClient } from './client/gateway-client.ts';
import type { GatewayClientOptions } from './client/gateway-client.ts';
import { ValidationError } from './client/results.ts';
import { EXIT, OPTIONS, USAGE, UsageError } from './cli/args.ts';
import type { CliIO, Values } from './cli/args.ts';
import { cmdAddressBook } from './cli/address-book.ts';
import { cmdInbox } from './cli/inbox.ts';
import { cmdChild } from './cli/child.ts';
import { promptHidden, readText } from './cli/files.ts';
import { printResult } from './cli/output.ts';
import { cmdSend, cmdSendMms } from './cli/send.ts';
import { defaultCliData, openCliReplies } from './services/cli-replies.ts';

export { EXIT } from './cli/args.ts';
export type { CliIO } from './cli/args.ts';
export { numbersFromFile } from './cli/send.ts';
export { formatTable } from './cli/output.ts';
export { promptHidden } from './cli/files.ts';

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIO): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined || command === 'help') {
    (command === undefined && values.help !== true ? io.stderr : io.stdout).write(USAGE);
    return command === undefined && values.help !== true ? EXIT.usage : EXIT.ok;
  }
  let client: GatewayClient | undefined;
  try {
    if (values.pin !== undefined) {
      throw new UsageError(
        'the PIN is never taken as a flag (it would stay in shell history): set MESSENGER_PIN or answer the prompt',
      );
    }
    const needsAccount = command !== 'version';
    client = new GatewayClient(await connection(values, env, io, needsAccount));
    const json = values.json === true;
    switch (command) {
      case 'send':
        return await cmdSend(client, values, io, json);
      case 'send-mms':
        return await cmdSendMms(client, values, io, json);
      case 'credit': {
        if (values.soap === true) {
          return printResult(
            io,
            json,
            await client.soapAvailableCredit(),
            (v) => `${v.Credit} ${v.Currency}`,
          );
        }
        return printResult(io, json, await client.availableCredit(), (v) => `${v.credit} ${v.currency}`);
      }
      case 'messages': {
        const r =
          values.soap === true ? await client.soapAvailableMessages() : await client.availableMessages();
        return printResult(io, json, r, (v) => String(v));
      }
      case 'reply-to': {
        const r =
          values.soap === true ? await client.soapPermittedReplyTo() : await client.permittedReplyTo();
        return printResult(io, json, r, (v) => v.join('\n'));
      }
      case 'inbox': {
        // Issue 25: through the app's reply intake, on the CLI's data folder (main/services/cli-replies.ts).
        const data = values.data ?? (env.MESSENGER_DATA || defaultCliData(env));
        const username = values.username ?? env.MESSENGER_USERNAME ?? '';
        const country = values.country ?? env.MESSENGER_COUNTRY;
        return await cmdInbox(client, io, json, (print) =>
          openCliReplies(
            data,
            {
              username,
              url: values.url ?? env.MESSENGER_URL ?? '',
              defaultCountry: country,
              log: (l) => io.stderr.write(`${l}\n`),
              env,
            },
            print,
          ),
        );
      }
      case 'version': {
        const r = await client.mobileMessengerVersion();
        return printResult(
          io,
          json,
          r,
          (v) => `${v.Version} (${v.ReleaseDate})\n${v.ReleaseNotice}\n${v.DownloadURL}`,
        );
      }
      case 'child':
        return await cmdChild(client, rest, values, io, json);
      case 'address-book':
        // address-book list [NAME[::GROUP]]: the account's server address books (QueryAddressBook)
        return await cmdAddressBook(client, rest, io, json);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`error: ${err.message}\n(run "messenger help" for usage)\n`);
      return EXIT.usage;
    }
    if (err instanceof ValidationError) {
      if (values.json === true) {
        io.stdout.write(`${JSON.stringify({ outcome: 'invalid', problems: err.problems }, null, 2)}\n`);
      }
      io.stderr.write(`${err.message}\nnothing was sent\n`);
      return EXIT.usage;
    }
    if (err instanceof TypeError && /gateway URL/.test(err.message)) {
      io.stderr.write(`error: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    await client?.close();
  }
}

async function connection(
  values: Values,
  env: NodeJS.ProcessEnv,
  io: CliIO,
  needsAccount: boolean,
): Promise<GatewayClientOptions> {
  const url = values.url ?? env.MESSENGER_URL;
  if (url === undefined || url === '') throw new UsageError('no gateway: give --url or set MESSENGER_URL');
  const username = values.username ?? env.MESSENGER_USERNAME ?? '';
  let pin = env.MESSENGER_PIN;
  if (needsAccount) {
    if (username === '') throw new UsageError('no account: give --username or set MESSENGER_USERNAME');
    if (pin === undefined || pin === '') pin = await io.promptPin?.();
    if (pin === undefined || pin === '') {
      throw new UsageError('no PIN: set MESSENGER_PIN or run in a terminal to be asked for it');
    }
  }
  let timeoutMs = 30_000;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new UsageError(`--timeout must be a positive number of seconds, got "${values.timeout}"`);
    timeoutMs = Math.round(seconds * 1000);
  }
  const secondaryUrl = values['secondary-url'] ?? env.MESSENGER_SECONDARY_URL;
  return {
    primaryUrl: url,
    ...(secondaryUrl !== undefined && secondaryUrl !== '' ? { secondaryUrl } : {}),
    username,
    pin: pin ?? '',
    connectTimeoutMs: timeoutMs,
    responseTimeoutMs: timeoutMs,
    defaultCountry: values.country ?? env.MESSENGER_COUNTRY,
    ...(values.ca !== undefined ? { ca: await readText(values.ca, '--ca') } : {}),
  };
}

/** Entry point of `npm run cli` and of bin/messenger.js. */
export async function run(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), process.env, {
    stdout: process.stdout,
    stderr: process.stderr,
    promptPin: () => promptHidden('PIN: '),
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
