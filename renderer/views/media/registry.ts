// The media picker's registry: content kind → label and editor (part B's kinds; part A's registry
// has the same shape and adds ringtone, operator logo, picture message and group graphic).
import type { ComponentType } from 'react';
import type { ContentKind } from '../../../preload/api.ts';
import { MmsEditor } from './MmsEditor.tsx';
import { PduEditor } from './PduEditor.tsx';
import { ServiceIndicationEditor } from './ServiceIndicationEditor.tsx';
import { VcalendarEditor } from './VcalendarEditor.tsx';
import { VcardEditor } from './VcardEditor.tsx';
import { WapPushEditor } from './WapPushEditor.tsx';
import type { ContentEditorProps } from './types.ts';

export const EDITORS: Partial<
  Record<ContentKind, { label: string; Editor: ComponentType<ContentEditorProps> }>
> = {
  vcard: { label: 'vCard (contact)', Editor: VcardEditor },
  vcalendar: { label: 'vCalendar (event)', Editor: VcalendarEditor },
  wapPush: { label: 'WAP push file', Editor: WapPushEditor },
  serviceIndication: { label: 'Service indication (WAP push link)', Editor: ServiceIndicationEditor },
  mms: { label: 'MMS notification', Editor: MmsEditor },
  pdu: { label: 'SMS PDU (expert)', Editor: PduEditor },
};
