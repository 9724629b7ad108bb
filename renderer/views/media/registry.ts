// The media picker's registry: every content kind Compose offers beside text and flash, with its
// label and editor (renderer/views/media/types.ts is the contract). A new kind is one line here.
import type { ComponentType } from 'react';
import type { ContentKind } from '../../../preload/api.ts';
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

export const EDITORS: Partial<Record<ContentKind, EditorEntry>> = {
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
