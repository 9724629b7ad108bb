// The app's domain model (issue 27), the content library (spec 2.4, 2.5, 8): numbers the gateway stores content under: the types the store, the services, the
// preload API (preload/api.ts re-exports each) and the renderer share. Types only.
import type { ContentKind } from './messages.ts';

/** The kinds of content a library number can hold, by the ContentKind that sends it. */
export type LibraryItemKind = Extract<
  ContentKind,
  'ringtone' | 'operatorLogo' | 'groupGraphic' | 'pictureMessage' | 'mms' | 'wapPush'
>;

export interface LibraryItem {
  number: number;
  kind: LibraryItemKind;
  /** The file name the gateway keeps, or the name given when it was uploaded ('' when unknown). */
  name: string;
  /** Public library, or the account's own upload. */
  owner: 'public' | 'own';
}
