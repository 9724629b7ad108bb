// The areas that are the app store as it is (contacts, groups, templates, the inbox's
// conversations, the history): national numbers read with the settings' default country.
import type { AppStore } from '../store/app-store.ts';
import type { MessengerApi } from '../../preload/api.ts';

type RecordAreas = Pick<MessengerApi, 'contacts' | 'groups' | 'templates' | 'history'> & {
  inbox: Omit<MessengerApi['inbox'], 'pollNow'>;
};

export function createRecords(deps: { store: AppStore; country(): string | undefined }): {
  api: RecordAreas;
} {
  const { store } = deps;
  const withCountry = (): { defaultCountry?: string } => {
    const c = deps.country();
    return c ? { defaultCountry: c } : {};
  };
  return {
    api: {
      inbox: {
        conversations: async (args) => store.conversations.list(args ?? {}),
        thread: async (args) => store.conversations.thread(args),
        markRead: async (id) => store.conversations.markRead(id),
        markUnread: async (id) => store.conversations.markUnread(id),
        delete: async (id) => store.conversations.delete(id),
        exportCsv: async (id) => store.conversations.exportCsv(id),
        unreadTotal: async () => store.conversations.unreadTotal(),
        search: async ({ query, limit }) => store.search.search(query, limit !== undefined ? { limit } : {}),
        setArchived: async ({ conversationId, archived }) =>
          store.conversations.setArchived(conversationId, archived),
        markAllRead: async () => store.conversations.markAllRead(),
        open: async (number) => store.conversations.open(number),
        exportMessages: async (args) => store.conversations.exportMessages(args ?? {}),
      },
      history: {
        messages: async (args) => store.conversations.history(args ?? {}),
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
