// The media picker's registry: every content kind Compose offers beside text and flash, with its
// label and editor (renderer/views/media/types.ts is the contract). Every kind of
// protocol/content.ts RICH_KINDS has its line here, in that order (the type says when one is missing).
import type { ComponentType } from 'react';
import type { RichKind } from '../../../protocol/content.ts';
import { GroupGraphicEditor, OperatorLogoEditor, PictureMessageEditor } from './BitmapKindEditors.tsx';
import { MmsEditor } from './MmsEditor.tsx';
import { PduEditor } from './PduEditor.tsx';
import { RingtoneEditor } from './RingtoneEditor.tsx';
import { ServiceIndicationEditor } from './ServiceIndicationEditor.tsx';
import { VcalendarEditor } from './VcalendarEditor.tsx';
import { VcardEditor } from './VcardEditor.tsx';
import { WapPushEditor } from './WapPushEditor.tsx';
import type { ContentEditorProps } from './types.ts';

export interface EditorEntry {
  label: string;
  Editor: ComponentType<ContentEditorProps>;
}

export const EDITORS: Readonly<Record<RichKind, EditorEntry>> = {
  ringtone: { label: 'Ringtone', Editor: RingtoneEditor },
  operatorLogo: { label: 'Operator logo', Editor: OperatorLogoEditor },
  pictureMessage: { label: 'Picture message', Editor: PictureMessageEditor },
  groupGraphic: { label: 'Group graphic', Editor: GroupGraphicEditor },
  vcard: { label: 'vCard (contact)', Editor: VcardEditor },
  vcalendar: { label: 'vCalendar (event)', Editor: VcalendarEditor },
  wapPush: { label: 'WAP push file', Editor: WapPushEditor },
  serviceIndication: { label: 'Service indication (WAP push link)', Editor: ServiceIndicationEditor },
  mms: { label: 'MMS notification', Editor: MmsEditor },
  pdu: { label: 'SMS PDU (expert)', Editor: PduEditor },
};
