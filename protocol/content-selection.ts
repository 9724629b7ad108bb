/**
 * Content selection of spec 2.4: which sendmms fields deliver a file. Single images, audio, video
 * and Java .jar files go by WAP push (WAPPushFileName1/Data1 or a hosted URL in si-href); MMS
 * presentations (.mms, or a .zip of parts the gateway composes) by the MMS notification fields; a
 * .jad descriptor only through si-href, and it must itself point at the .jar.
 */

import type { RichKind } from './kinds.ts';
import { ADAPTABLE_IMAGE_EXTENSIONS, MMS_NOTIFICATION_EXTENSIONS } from './limits.ts';

/** The sendmms content kind (content.ts RICH_KINDS) that carries a file of this type. */
export type FileRoute = Extract<RichKind, 'wapPush' | 'mms' | 'serviceIndication'>;

export type FileCategory = 'image' | 'audio' | 'video' | 'java' | 'presentation' | 'descriptor' | 'other';

export interface FileSelection {
  /** Lower-case extension with the dot, '' when the name has none. */
  extension: string;
  category: FileCategory;
  route: FileRoute;
  /** Whether the gateway adapts the file to the handset (spec 2.4: .jpg .gif .png .wbmp). */
  adapted: boolean;
  /** One sentence for the user: how this file is delivered and why. */
  reason: string;
}

const CATEGORIES: ReadonlyArray<readonly [FileCategory, ReadonlyArray<string>]> = [
  ['image', ['.jpg', '.jpeg', '.gif', '.png', '.wbmp', '.bmp']],
  ['audio', ['.mid', '.midi', '.wav', '.amr', '.mp3', '.aac', '.rtttl', '.rtx']],
  ['video', ['.3gp', '.mp4']],
  ['java', ['.jar']],
  ['descriptor', ['.jad']],
  ['presentation', MMS_NOTIFICATION_EXTENSIONS],
];

/** The lower-case extension of a file name with its dot ('' when there is none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot).toLowerCase() : '';
}

/** How spec 2.4 delivers a file of this name. */
export function selectFileRoute(name: string): FileSelection {
  const extension = fileExtension(name);
  const category = CATEGORIES.find(([, exts]) => exts.includes(extension))?.[0] ?? 'other';
  const adapted = (ADAPTABLE_IMAGE_EXTENSIONS as ReadonlyArray<string>).includes(extension);
  const shown = extension || 'a file without extension';
  switch (category) {
    case 'presentation':
      return {
        extension,
        category,
        route: 'mms',
        adapted,
        reason: `${shown} is an MMS presentation: send it as an MMS notification (MMSNotificationFileName1), not as a WAP push file`,
      };
    case 'descriptor':
      return {
        extension,
        category,
        route: 'serviceIndication',
        adapted,
        reason:
          'a .jad descriptor is delivered through si-href: host it, make its MIDlet-Jar-URL point at the .jar, and send a service indication with its URL',
      };
    default:
      return {
        extension,
        category,
        route: 'wapPush',
        adapted,
        reason: adapted
          ? `${shown} is a single image: sent by WAP push and adapted to each handset`
          : `${shown} is ${category === 'other' ? 'a single file' : `a single ${category === 'java' ? 'Java application' : category} file`}: sent by WAP push unchanged`,
      };
  }
}
