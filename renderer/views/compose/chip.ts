// One recipient of Compose's "To" field, as Recipients.tsx shows it: its own file so that the pieces
// of the field (InvalidPanel.tsx, find-chips.ts) name it without importing Recipients.tsx back.
import type { Contact, Group } from '../../../domain/index.ts';

export type Chip =
  | { kind: 'number'; key: string; input: string; msisdn: string }
  | { kind: 'invalid'; key: string; input: string; reason: string }
  | { kind: 'contact'; key: string; contact: Contact }
  | { kind: 'group'; key: string; group: Group }
  // issue 16: a server address book or book::group, sent as SendToAddressBook (reach null: unknown)
  | { kind: 'book'; key: string; ref: string; reach: number | null };
