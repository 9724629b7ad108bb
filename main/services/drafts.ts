// Compose's draft per signed-in account (issue 12): saved as the user types, so it survives
// navigation and a restart; "Discard draft" and a send delete it. The store is ./store/drafts.ts.
import type { AppStore } from '../store/app-store.ts';
import type { Session } from './session.ts';
import type { MessengerApi } from '../../preload/api.ts';

export function createDrafts(deps: { store: AppStore; sessions: { require(): Session } }) {
  const { store, sessions } = deps;
  const api: MessengerApi['drafts'] = {
    get: async () => store.drafts.get(sessions.require().account.id),
    save: async (draft) => store.drafts.save(sessions.require().account.id, draft),
    discard: async () => store.drafts.discard(sessions.require().account.id),
  };
  return { api, close(): void {} };
}
