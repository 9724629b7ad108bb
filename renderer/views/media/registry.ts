// The media picker's registry: every content kind Compose offers beside text and flash, with its
// label and editor (renderer/views/media/types.ts is the contract). A new kind is one line here.
import type { ComponentType } from 'react';
import type { ContentKind } from '../../../preload/api.ts';
import { GroupGraphicEditor, OperatorLogoEditor, PictureMessageEditor } from './BitmapKindEditors.tsx';
import { RingtoneEditor } from './RingtoneEditor.tsx';
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
};
