// Everything wrong with Compose's form before anything is sent: the recipients, the text's length
// (protocol/sms), the rich draft's own problems, then the problems protocol/content.ts finds in the
// content it becomes (composeContent, the same content Send submits).
import { useMemo } from 'react';
import { contentProblems, isRichKind, type Content, type ContentKind } from '../../../protocol/content.ts';
import type { MergeMeasure } from '../../../domain/index.ts';
import { LIMITS, type PhoneMake } from '../../../protocol/limits.ts';
import { analyzeText, type TextAnalysis } from '../../../protocol/sms.ts';
import { toUtcSendTime } from '../../format.ts';
import { draftContent, type ContentDraft } from '../media/types.ts';
import type { SendOptions } from './Options.tsx';
import { invalidChips, type Chip } from './Recipients.tsx';

/** Invalid chips named one by one in the form's problems; above this they are counted. */
const INVALID_NAMED = 5;

export interface ComposeForm {
  chips: Chip[];
  entry: string;
  kind: ContentKind;
  text: string;
  richDraft: ContentDraft | null;
  /** The PhoneMake the send carries ('' for none). */
  effectiveMake: PhoneMake | '';
  options: SendOptions;
  /** Issue 16: recipients the Cc/Bcc reach (counted in the cost). */
  extraReach?: number;
  /** A mail-merge text measured per recipient (useMergeMeasure): the counter follows its longest text. */
  merge?: MergeMeasure | null;
}

export interface ComposeValidation {
  analysis: TextAnalysis;
  /** More parts than one concatenated SMS may have (protocol LIMITS.maxMessageParts). */
  tooLong: boolean;
  costMessages: number;
  /** The rich draft's own problems: Send stays disabled while there are any. */
  contentIssues: string[];
  /** Every problem of the form, computed when Send is pressed (skipInvalid: the invalid chips are left out). */
  problems: (opts?: { skipInvalid?: boolean }) => string[];
}

/**
 * The content Compose sends: the text, or the rich draft with the PhoneMake its kind needs; then
 * Reply-To, the delivery option (text only) and the schedule. Null while the kind's editor has not
 * reported a draft yet.
 */
export function composeContent(
  form: Pick<ComposeForm, 'kind' | 'text' | 'richDraft' | 'effectiveMake' | 'options'>,
): Content | null {
  const { kind, text, richDraft, effectiveMake } = form;
  const { replyTo, delivery, schedule, delay, at } = form.options;
  const rich = isRichKind(kind);
  let base: Content;
  if (rich) {
    if (!richDraft || richDraft.kind !== kind) return null;
    const c = draftContent(richDraft);
    const { phoneModel, disableRepurposing } = form.options;
    base = {
      ...c,
      fields: {
        ...c.fields,
        ...(effectiveMake ? { PhoneMake: effectiveMake } : {}),
        ...(phoneModel.trim() ? { PhoneModel: phoneModel.trim() } : {}),
        ...(disableRepurposing && kind === 'wapPush' ? { DisableRepurposing: '1' } : {}),
      },
    };
  } else base = { kind: kind === 'flash' ? 'flash' : 'text', text };
  const common = {
    ...(replyTo ? { replyTo } : {}),
    ...(schedule === 'delay' ? { sendTimeDelay: Number(delay) } : {}),
    ...(schedule === 'at' ? { sendTimeAbsolute: toUtcSendTime(at) ?? '' } : {}),
  };
  return isRichKind(base.kind)
    ? { ...base, ...common }
    : { ...base, ...common, ...(delivery !== 'Default' ? { deliveryOption: delivery } : {}) };
}

export function useComposeValidation(form: ComposeForm): ComposeValidation {
  const { chips, entry, kind, text, richDraft, merge } = form;
  const { schedule, at } = form.options;
  const flash = kind === 'flash';
  const rich = isRichKind(kind);
  // With mail merge the longest text a recipient gets is measured, not the template.
  const measured = merge?.longest?.text ?? text;
  const analysis = useMemo(() => analyzeText(measured, { flash }), [measured, flash]);
  // The one length limit of a text: parts of one concatenated SMS (protocol LIMITS.maxMessageParts).
  const tooLong = analysis.segments > LIMITS.maxMessageParts;
  const invalid = invalidChips(chips);
  const approxRecipients = chips.reduce(
    (n, c) =>
      n +
      (c.kind === 'group'
        ? c.group.memberCount
        : c.kind === 'book'
          ? (c.reach ?? 0)
          : c.kind === 'invalid'
            ? 0
            : 1),
    form.extraReach ?? 0,
  );
  const costMessages = merge ? merge.messages : approxRecipients * Math.max(analysis.segments, 1);

  /** The scheduled time's own problems (the protocol sees only a valid UTC time). */
  function scheduleProblems(): string[] {
    if (schedule !== 'at') return [];
    const utc = toUtcSendTime(at);
    if (!utc) return ['Choose a valid date and time for the scheduled send.'];
    if (new Date(at).getTime() < Date.now()) return ['The scheduled time is in the past.'];
    return [];
  }

  /** The rich draft's own problems, then protocol problems of the content it becomes. */
  function richProblems(): string[] {
    const content = composeContent(form);
    if (!richDraft || !content) return ['The content editor is not ready yet.'];
    const out = [...richDraft.problems, ...scheduleProblems()];
    // The editor's own sentences come first; protocol problems of fields it already explained are not repeated.
    const explained = richDraft.problems.length > 0;
    for (const p of contentProblems('sendmms', content)) {
      if (explained && p.field in richDraft.fields) continue;
      if (!out.includes(p.message)) out.push(p.message);
    }
    return out;
  }

  /** Everything wrong with the form, before anything is sent (protocol validation + UI rules). */
  function problems(opts: { skipInvalid?: boolean } = {}): string[] {
    const out: string[] = [];
    const pending = entry.trim();
    if (pending) out.push(`Press Enter to add “${pending}” as a recipient, or clear it.`);
    if (chips.length === 0) out.push('Add at least one recipient.');
    // Issue 26: a few are named; many are counted (they are listed under To, with Remove invalid).
    // (skipInvalid: sent to the valid ones only.)
    const named = opts.skipInvalid ? [] : invalid;
    if (named.length > INVALID_NAMED)
      out.push(
        `${named.length.toLocaleString()} invalid numbers: remove them (“Remove invalid” under To) or fix them.`,
      );
    else for (const c of named) out.push(`${c.input}: ${c.reason}`);
    if (rich) return out.concat(richProblems());
    if (!text) out.push('The message is empty.');
    if (tooLong)
      out.push(
        `The message needs ${analysis.segments} parts; at most ${LIMITS.maxMessageParts} can be joined into one message.`,
      );
    out.push(...scheduleProblems());
    // The text's own problems (empty, too long) are said above in the form's words.
    const said = new Set(['Message', 'FlashMessage']);
    for (const p of contentProblems('sendsms', composeContent(form)!))
      if (!said.has(p.field)) out.push(p.message);
    return out;
  }

  // While the rich content itself cannot be sent, Send is disabled and the reasons are listed.
  const contentIssues = rich ? (richDraft && richDraft.kind === kind ? richDraft.problems : []) : [];
  return { analysis, tooLong, costMessages, contentIssues, problems };
}
