// The app's storage-backed services, opened together on one database file. The service facade
// of preload/api.ts (next: accounts, send loop, inbox poller, credit, …) builds on this.
import { openAppDb } from './db.ts';
import type { AppDb } from './db.ts';
import { SettingsRepo } from './settings.ts';
import { AccountsRepo } from './accounts.ts';
import { ContactsRepo } from './contacts.ts';
import { ConversationsRepo } from './conversations.ts';
import { GroupsRepo } from './groups.ts';
import { OutboxJournal } from './outbox-journal.ts';
import { SearchRepo } from './search.ts';
import { TemplatesRepo } from './templates.ts';
import { ChildAccountsRepo } from './children.ts';
import { LibraryNumbersRepo } from './library-numbers.ts';

export interface AppStore {
  app: AppDb;
  accounts: AccountsRepo;
  contacts: ContactsRepo;
  groups: GroupsRepo;
  templates: TemplatesRepo;
  conversations: ConversationsRepo;
  search: SearchRepo;
  outbox: OutboxJournal;
  settings: SettingsRepo;
  children: ChildAccountsRepo;
  libraryNumbers: LibraryNumbersRepo;
  close(): void;
}

/** Open the app database at `file` with every repository; `defaultCountry` reads national numbers. */
export function openAppStore(file: string, options: { defaultCountry?: string } = {}): AppStore {
  const app = openAppDb(file);
  return {
    app,
    accounts: new AccountsRepo(app),
    contacts: new ContactsRepo(app, options),
    groups: new GroupsRepo(app),
    templates: new TemplatesRepo(app),
    conversations: new ConversationsRepo(app, options),
    search: new SearchRepo(app),
    outbox: new OutboxJournal(app, options),
    settings: new SettingsRepo(app),
    children: new ChildAccountsRepo(app),
    libraryNumbers: new LibraryNumbersRepo(app),
    close: () => app.close(),
  };
}
