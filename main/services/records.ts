// The areas that are the app store as it is (contacts, groups, templates, the inbox's
// conversations, the history): national numbers read with the settings' default country. The
// Inbox is the signed-in account's (issue 25).
import type { AppStore } from '../store/app-store.ts';
import type { MessengerApi } from '../../preload/api.ts';
import { ApiError } from './validate-args.ts';

type RecordAreas = Pick<MessengerApi, 'contacts' | 'groups' | 'templates' | 'history'> & {
  inbox: Omit<MessengerApi['inbox'], 'pollNow'>;
};

export function createRecords(deps: {
  store: AppStore;
  country(): string | undefined;
  /** The signed-in account's id (null: signed out). */
  account(): string | null;
}): {
  api: RecordAreas;
} {
  const { store } = deps;
  /** The signed-in account, for an action on its Inbox. */
  const mine = (): string => {
    const id = deps.account();
    if (id === null) throw new ApiError('not-signed-in', 'sign in to see and change the Inbox');
    return id;
  };
  const withCountry = (): { defaultCountry?: string } => {
    const c = deps.country();
    return c ? { defaultCountry: c } : {};
  };
  return {
    api: {
      // Issue 25: the signed-in account's Inbox only; signed out, there is nothing to show or do.
      inbox: {
        conversations: async (args) => {
          const id = deps.account();
          return id === null ? { items: [], next: null } : store.conversations.list(id, args ?? {});
        },
        thread: async (args) => store.conversations.thread(mine(), args),
        markRead: async (id) => store.conversations.markRead(mine(), id),
        markUnread: async (id) => store.conversations.markUnread(mine(), id),
        delete: async (id) => store.conversations.delete(mine(), id),
        exportCsv: async (id) => store.conversations.exportCsv(mine(), id),
        unreadTotal: async () => {
          const id = deps.account();
          return id === null ? 0 : store.conversations.unreadTotal(id);
        },
        search: async ({ query, limit }) => {
          const id = deps.account();
          const found = store.search.search(id ?? '', query, limit !== undefined ? { limit } : {});
          return id === null ? { ...found, messages: [], sends: [] } : found;
        },
        setArchived: async ({ conversationId, archived }) =>
          store.conversations.setArchived(mine(), conversationId, archived),
        markAllRead: async () => store.conversations.markAllRead(mine()),
        open: async (number) => store.conversations.open(mine(), number),
        exportMessages: async (args) => store.conversations.exportMessages(mine(), args ?? {}),
      },
      history: {
        messages: async (args) => store.conversations.history(mine(), args ?? {}),
      },
      contacts: {
        list: async () => store.contacts.list(),
        get: async (id) => store.contacts.get(id),
        add: async (input) => store.contacts.add(input, withCountry()),
        edit: async ({ id, changes }) => store.contacts.edit(id, changes, withCountry()),
        delete: async (id) => store.contacts.delete(id),
        findDuplicates: async (n) => store.contacts.findDuplicates(n, deps.country()),
        importCsv: async ({ csv, mapping, options }) =>
          store.contacts.importCsv(csv, mapping, { ...withCountry(), ...options }),
        importVcard: async ({ text, options }) =>
          store.contacts.importVcard(text, { ...withCountry(), ...options }),
        exportCsv: async () => store.contacts.exportCsv(),
        deleteMany: async (ids) => store.contacts.deleteMany(ids),
        restore: async (deleted) => store.contacts.restore(deleted),
      },
      groups: {
        list: async () => store.groups.list(),
        create: async (name) => store.groups.create(name),
        rename: async ({ id, name }) => store.groups.rename(id, name),
        delete: async (id) => store.groups.delete(id),
        addMembers: async ({ id, contactIds }) => store.groups.addMembers(id, contactIds),
        removeMembers: async ({ id, contactIds }) => store.groups.removeMembers(id, contactIds),
        members: async (id) => store.groups.members(id),
      },
      templates: {
        list: async () => store.templates.list(),
        create: async (args) => store.templates.create(args),
        update: async ({ id, ...changes }) => store.templates.update(id, changes),
        delete: async (id) => store.templates.delete(id),
      },
    },
  };
}
