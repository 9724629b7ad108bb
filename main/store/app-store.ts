// The app's storage-backed services, opened together: the repositories on one SQLite file, and the
// settings in the preferences file beside it (./preferences.ts). The service facade of
// preload/api.ts builds on this.
import { chmodSync } from 'node:fs';
import { dirname } from 'node:path';
import { openAppDb } from './db.ts';
import type { AppDb, BackupFailure } from './db.ts';
import { openPreferences } from './preferences.ts';
import type { PreferencesStore } from './preferences.ts';
import { SettingsRepo, migrateSqliteSettings } from './settings.ts';
import { AccountsRepo } from './accounts.ts';
import { ContactsRepo } from './contacts.ts';
import { ConversationsRepo } from './conversations.ts';
import { GroupsRepo } from './groups.ts';
import { OutboxJournal, outboxRunId } from './outbox-journal.ts';
import { OutboxCampaigns } from './outbox-campaigns.ts';
import { releaseRunLock } from './run-lock.ts';
import { SearchRepo } from './search.ts';
import { TemplatesRepo } from './templates.ts';
import { ChildAccountsRepo } from './children.ts';
import { LibraryNumbersRepo } from './library-numbers.ts';
import { DraftsRepo } from './drafts.ts';
import { OptOutsRepo } from './opt-outs.ts';
import { AutoRepliesRepo } from './auto-replies.ts';
import { OutboxAccountRepo } from './outbox-account.ts';
import { LearnedRatesRepo } from './learned-rates.ts';
import { ReplySpool } from './reply-spool.ts';
import { InboundImportRepo } from './inbound-import.ts';
import { backupNow } from './backups.ts';
import type { BackupInfo } from './backups.ts';

/**
 * What the services see: every repository and the journal, never the database handle (issue 27: a
 * service asks the store for an operation; it opens no transaction of its own).
 */
export interface AppStore {
  preferences: PreferencesStore;
  accounts: AccountsRepo;
  contacts: ContactsRepo;
  groups: GroupsRepo;
  templates: TemplatesRepo;
  conversations: ConversationsRepo;
  search: SearchRepo;
  outbox: OutboxJournal;
  /** Campaigns (issue 12) over the journal: read, resend to failed. */
  campaigns: OutboxCampaigns;
  settings: SettingsRepo;
  children: ChildAccountsRepo;
  libraryNumbers: LibraryNumbersRepo;
  drafts: DraftsRepo;
  optOuts: OptOutsRepo;
  autoReplies: AutoRepliesRepo;
  /** Issue 25: the outbox as the signed-in account sees it. */
  outboxAccount: OutboxAccountRepo;
  /** Issue 26: message prices learned from what the gateway charged. */
  learnedRates: LearnedRatesRepo;
  /** Issue 25: replies on disk before they are parsed. */
  replySpool: ReplySpool;
  /** Issue 28: inbound messages stored many at a time (an office desk's import). */
  inboundImport: InboundImportRepo;
  /** Issue 25: the database file (':memory:' in some tests): its folder's free space, its backups. */
  file: string;
  /** Issue 25: a checked online backup into the data folder's backups/. */
  backupNow(reason: string): Promise<BackupInfo>;
  /** Issue 25: the backup before this open's migrations failed (they were applied all the same). */
  migrationBackupFailure: BackupFailure | null;
  close(): void;
}

/** The store as opened: the services' view and the database handle, for tests and tools. */
export interface OpenedAppStore extends AppStore {
  app: AppDb;
}

export interface AppStoreOptions {
  /** Reads national numbers. */
  defaultCountry?: string;
  /**
   * The preferences, when the shell opened them (Electron: over electron-store); by default
   * `conf`'s preferences.json in the database's folder.
   */
  preferences?: PreferencesStore;
}

/** Open the app database at `file` with every repository, and the preferences. */
export function openAppStore(file: string, options: AppStoreOptions = {}): OpenedAppStore {
  const app = openAppDb(file);
  // Issue 17: the app's data folder (messages, contacts, the journal) is its owner's alone.
  if (process.platform !== 'win32' && file !== ':memory:') chmodSync(dirname(file), 0o700);
  try {
    const preferences = options.preferences ?? openPreferences(dirname(file));
    migrateSqliteSettings(app, preferences);
    const outbox = new OutboxJournal(app, options);
    return {
      app,
      preferences,
      accounts: new AccountsRepo(app),
      contacts: new ContactsRepo(app, options),
      groups: new GroupsRepo(app),
      templates: new TemplatesRepo(app),
      conversations: new ConversationsRepo(app, options),
      search: new SearchRepo(app),
      outbox,
      campaigns: new OutboxCampaigns(app, outbox),
      settings: new SettingsRepo(preferences),
      children: new ChildAccountsRepo(app),
      libraryNumbers: new LibraryNumbersRepo(app),
      drafts: new DraftsRepo(app),
      optOuts: new OptOutsRepo(app),
      autoReplies: new AutoRepliesRepo(app),
      outboxAccount: new OutboxAccountRepo(app),
      learnedRates: new LearnedRatesRepo(app),
      replySpool: new ReplySpool(app),
      inboundImport: new InboundImportRepo(app, options),
      file: app.file,
      backupNow: (reason) => backupNow(app.db, app.file, reason),
      migrationBackupFailure: app.migrationBackupFailure,
      close: () => {
        app.close();
        releaseRunLock(file, outboxRunId()); // issue 17: this run is over
      },
    };
  } catch (err) {
    app.close();
    throw err;
  }
}
