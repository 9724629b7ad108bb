// The content library as the media picker sees it (preload/api.ts LibraryItem): for the local
// sandbox, the reference gateway's library as its GET /sandbox/library?username= lists it (public
// files and the demo account's own uploads); for any gateway, the numbers it returned as
// LibraryNumber to this app (main/store/library-numbers.ts).
import type { SandboxLibraryKind as GatewayLibraryKind } from '../../protocol/sandbox-routes.ts';
import { isLibraryItemKind } from '../store/library-numbers.ts';
import type { ContentKind, LibraryItem, LibraryItemKind } from '../../domain/index.ts';

const FROM_GATEWAY: Record<GatewayLibraryKind, LibraryItemKind> = {
  ringtone: 'ringtone',
  'operator-logo': 'operatorLogo',
  'group-graphic': 'groupGraphic',
  picture: 'pictureMessage',
  mms: 'mms',
  wap: 'wapPush',
};

/** The library kind a send of this content kind stores, or null when it stores none. */
export function libraryKindOf(kind: ContentKind): LibraryItemKind | null {
  return isLibraryItemKind(kind) ? kind : null;
}

/** One entry of the sandbox's GET /sandbox/library (docs/GATEWAY.md). */
export interface SandboxLibraryEntry {
  number: number;
  kind: string;
  name: string;
  owner?: string;
}

/** The sandbox route's entries as library items (kinds the app does not know are left out). */
export function fromSandboxLibrary(entries: readonly SandboxLibraryEntry[]): LibraryItem[] {
  return entries.flatMap((f) => {
    const kind = Object.hasOwn(FROM_GATEWAY, f.kind) ? FROM_GATEWAY[f.kind as GatewayLibraryKind] : null;
    if (kind === null) return [];
    return [{ number: f.number, kind, name: f.name, owner: f.owner === 'own' ? 'own' : 'public' } as const];
  });
}

/** Both lists in number order, the gateway's entry kept when a number is in both. */
export function mergeLibrary(primary: LibraryItem[], seen: LibraryItem[]): LibraryItem[] {
  const byNumber = new Map<number, LibraryItem>();
  for (const item of seen) byNumber.set(item.number, item);
  for (const item of primary) byNumber.set(item.number, item);
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}
