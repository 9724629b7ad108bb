// Every type of the app's domain model (issue 27), one import for the store, the services, the preload
// API and the renderer; the values (domain/status-groups.ts) are imported from their own file.
export type * from './messages.ts';
export type * from './outbox.ts';
export type * from './contacts.ts';
export type * from './account.ts';
export type * from './child-accounts.ts';
export type * from './library.ts';
export type * from './database.ts';
export type * from './status-groups.ts';
