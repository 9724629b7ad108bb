// Issue 25: the reply intake of `messenger inbox` (main/cli/inbox.ts), the app's own
// (./reply-intake.ts: spool before parse, identity by answer and position, the repeat filter across
// runs) on a data folder the CLI is given: its messenger.sqlite holds the spool and the replies kept.
// Point it at the app's data folder and what the CLI collects is in the app's Inbox, under the account the
// app keeps for the same username and gateway (issue 25: the Inbox is per account; the app and the
// CLI may run together: SQLite's WAL and the spool's run locks keep each one's entries its own).
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { openAppStore } from '../store/app-store.ts';
import { createReplyIntake } from './reply-intake.ts';
import { createOptOuts } from './optouts.ts';
import { openCliOffice } from '../office/cli-office.ts';
import type { MessageRecord } from '../../preload/api.ts';
import type { MOMessage } from '../../protocol/soap/operations.ts';

/** The CLI's data folder when neither --data nor MESSENGER_DATA names one. */
export function defaultCliData(env: NodeJS.ProcessEnv): string {
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'messenger-cli');
}

export async function openCliReplies(
  dataDir: string,
  options: {
    username: string;
    /** The gateway the CLI was given (--url): with the username, names the app's account, if any. */
    url: string;
    defaultCountry?: string | undefined;
    log: (line: string) => void;
    /** MESSENGER_OFFICE, MESSENGER_OFFICE_PASSWORD (a folder that is a desk of an office). */
    env?: Record<string, string | undefined>;
  },
  print: (stored: MessageRecord[]) => void,
) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const store = openAppStore(join(dataDir, 'messenger.sqlite'), {
    defaultCountry: options.defaultCountry ?? 'GB',
  });
  // Issue 25: replies belong to an account. In the app's data folder, the account the app keeps for
  // this username and gateway (so they are in its Inbox); otherwise none ('': a CLI-only folder).
  const known = store.accounts.findByLogin(options.username, options.url);
  const account = { id: known?.id ?? '', username: options.username };
  // Issue 28: a folder that is a desk of an office collects only with the account's collector lease,
  // and shares what it stores (../office/cli-office.ts); refused, nothing is collected
  const opened = await openCliOffice(store, known, options.env ?? {}, options.log).catch((err: unknown) => {
    store.close();
    throw err;
  });
  const refused = opened !== null && 'refused' in opened ? opened.refused : null;
  const office = opened !== null && !('refused' in opened) ? opened : undefined;
  // Opt-out and opt-in keywords (the settings of this folder: the app's own in its folder) put a
  // sender on the account's list as the app does, so that the app's next send leaves them out (the
  // CLI has no session: only `received` is used, for the account the replies were stored under).
  const optOuts = createOptOuts({
    store,
    sessions: {
      current: () => null,
      require: () => {
        throw new Error('the CLI has no session');
      },
    },
    settings: () => store.settings.get(),
    country: () => options.defaultCountry,
    log: options.log,
    office,
  });
  const intake = createReplyIntake({
    store,
    emit: () => {},
    log: options.log,
    announce: (stored, accountId) => {
      optOuts.received(stored, accountId);
      print(stored);
    },
    repeatsAcrossRuns: true, // issue 24: what a gateway that keeps messages returned to an earlier run
    office,
  });
  return {
    file: store.file,
    // (refused: a stopped run's spool is left for the app, which shares what it stores)
    recover: () => (refused === null ? intake.recover(account) : 0),
    ready: () =>
      refused ?? office?.lost() ?? (intake.ready() ? null : (intake.state().reason ?? 'replies are held')),
    collect: (fresh: (page: MOMessage[]) => MOMessage[]) => intake.collect(account, fresh),
    close: async () => {
      try {
        await office?.close();
      } finally {
        store.close();
      }
    },
  };
}
