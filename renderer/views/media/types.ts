// The contract between the compose window and each rich-content editor of the media picker
// (spec 2.4, sendmms). An editor owns its own form state and reports what would be sent; Compose
// owns recipients, ReplyTo, schedule and the send itself.
import type { DraftJson } from '../../../domain/index.ts';
import type { RichContent, RichKind } from '../../../protocol/content.ts';

/** What an editor reports on every change: the content to send, or why it cannot be sent yet. */
export interface ContentDraft {
  kind: RichKind;
  /** Content.text: the Message field of sendmms (subject of an MMS, text of a WAP push), often ''. */
  text: string;
  /** The sendmms fields by their spec names (PhoneMake, Ringtone, OperatorLogo, MCC, si-href, …). */
  fields: Record<string, string>;
  /** Every problem that blocks sending (each a full sentence); empty when the draft can be sent. */
  problems: string[];
  /** One line for the send summary, e.g. "Ringtone “Beep”, 42 bytes". */
  summary: string;
}

/**
 * An editor's own form (ringtone text, bitmap pixels and network, vCard choices, …) as JSON: kept in
 * Compose's saved draft (issue 12) without Compose knowing its shape, and handed back to the editor
 * when Compose opens again (after navigation or a restart). Only the editor reads it.
 */
export type EditorState = { [field: string]: DraftJson };

/** What an editor reports: the draft to send and its own state to keep. */
export interface EditorReport extends ContentDraft {
  state: EditorState;
}

export interface ContentEditorProps {
  /** Called with the editor's current draft and state on mount and after every change. */
  onChange(report: EditorReport): void;
  /**
   * The state this editor reported before (from a saved draft), to start from instead of its defaults.
   * It was read from disk: the editor takes only the values that still fit (restoreForm).
   */
  saved?: EditorState | undefined;
}

/** The content a draft becomes (Compose adds PhoneMake, replyTo and the schedule). */
export function draftContent(draft: ContentDraft): RichContent {
  return { kind: draft.kind, text: draft.text, fields: draft.fields };
}
