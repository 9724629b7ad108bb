// Everything wrong with Compose's form before anything is sent: the recipients, the text's length
// (protocol/sms), the rich draft's own problems, then protocol validation of the request it becomes.
import { useMemo } from 'react';
import type { ContentKind } from '../../../preload/api.ts';
import { LIMITS, type PhoneMake } from '../../../protocol/limits.ts';
import { analyzeText, type TextAnalysis } from '../../../protocol/sms.ts';
import { validateRequest, type Problem } from '../../../protocol/validate.ts';
import { toUtcSendTime } from '../../format.ts';
import type { ContentDraft } from '../media/types.ts';
import type { SendOptions } from './Options.tsx';
import { invalidChips, type Chip } from './Recipients.tsx';

export interface ComposeForm {
  chips: Chip[];
  entry: string;
  kind: ContentKind;
  text: string;
  richDraft: ContentDraft | null;
  /** The PhoneMake the send carries ('' for none). */
  effectiveMake: PhoneMake | '';
  options: SendOptions;
}

export interface ComposeValidation {
  analysis: TextAnalysis;
  /** More parts than one concatenated SMS may have (protocol LIMITS.maxMessageParts). */
  tooLong: boolean;
  costMessages: number;
  /** The rich draft's own problems: Send stays disabled while there are any. */
  contentIssues: string[];
  /** Every problem of the form, computed when Send is pressed. */
  problems: () => string[];
}

export function useComposeValidation(form: ComposeForm): ComposeValidation {
  const { chips, entry, kind, text, richDraft, effectiveMake } = form;
  const { replyTo, delivery, schedule, delay, at } = form.options;
  const flash = kind === 'flash';
  const rich = kind !== 'text' && kind !== 'flash';
  const analysis = useMemo(() => analyzeText(text, { flash }), [text, flash]);
  // The one length limit of a text: parts of one concatenated SMS (protocol LIMITS.maxMessageParts).
  const tooLong = analysis.segments > LIMITS.maxMessageParts;
  const invalid = invalidChips(chips);
  const approxRecipients = chips.reduce(
    (n, c) => n + (c.kind === 'group' ? c.group.memberCount : c.kind === 'invalid' ? 0 : 1),
    0,
  );
  const costMessages = approxRecipients * Math.max(analysis.segments, 1);

  /** The rich draft's own problems, then protocol validation of the sendmms request it becomes. */
  function richProblems(): string[] {
    if (!richDraft || richDraft.kind !== kind) return ['The content editor is not ready yet.'];
    const out = [...richDraft.problems];
    const fields: Record<string, string> = {
      Username: 'user',
      PIN: 'pin',
      SendTo: '447700900000',
      ...richDraft.fields,
    };
    if (richDraft.text !== '') fields.Message = richDraft.text;
    if (effectiveMake) fields.PhoneMake = effectiveMake;
    if (replyTo) fields.ReplyTo = replyTo;
    if (schedule === 'delay') fields.SendTimeDelay = delay;
    if (schedule === 'at') {
      const utc = toUtcSendTime(at);
      if (!utc) out.push('Choose a valid date and time for the scheduled send.');
      else if (new Date(at).getTime() < Date.now()) out.push('The scheduled time is in the past.');
      else fields.SendTimeAbsolute = utc;
    }
    // The editor's own sentences come first; protocol problems of fields it already explained are not repeated.
    const explained = richDraft.problems.length > 0;
    for (const p of validateRequest('sendmms', fields) as Problem[]) {
      if (p.field === 'Username' || p.field === 'PIN' || p.field === 'SendTo') continue;
      if (explained && p.field in richDraft.fields) continue;
      if (!out.includes(p.message)) out.push(p.message);
    }
    return out;
  }

  /** Everything wrong with the form, before anything is sent (protocol validation + UI rules). */
  function problems(): string[] {
    const out: string[] = [];
    const pending = entry.trim();
    if (pending) out.push(`Press Enter to add “${pending}” as a recipient, or clear it.`);
    if (chips.length === 0) out.push('Add at least one recipient.');
    for (const c of invalid) out.push(`${c.input}: ${c.reason}`);
    if (rich) return out.concat(richProblems());
    if (!text) out.push('The message is empty.');
    if (tooLong)
      out.push(
        `The message needs ${analysis.segments} parts; at most ${LIMITS.maxMessageParts} can be joined into one message.`,
      );
    const fields: Record<string, string> = {
      Username: 'user',
      PIN: 'pin',
      SendTo:
        chips
          .filter((c) => c.kind === 'number')
          .map((c) => (c.kind === 'number' ? c.msisdn : ''))
          .join(',') || '447700900000',
      [flash ? 'FlashMessage' : 'Message']: text || ' ',
    };
    if (replyTo) fields.ReplyTo = replyTo;
    if (delivery !== 'Default') fields.DeliveryServiceOption = delivery;
    if (schedule === 'delay') fields.SendTimeDelay = delay;
    if (schedule === 'at') {
      const utc = toUtcSendTime(at);
      if (!utc) out.push('Choose a valid date and time for the scheduled send.');
      else if (new Date(at).getTime() < Date.now()) out.push('The scheduled time is in the past.');
      else fields.SendTimeAbsolute = utc;
    }
    const skip = new Set(['Username', 'PIN', 'Message', 'FlashMessage', 'SendTo']);
    for (const p of validateRequest('sendsms', fields) as Problem[])
      if (!skip.has(p.field)) out.push(p.message);
    return out;
  }

  // While the rich content itself cannot be sent, Send is disabled and the reasons are listed.
  const contentIssues = rich ? (richDraft && richDraft.kind === kind ? richDraft.problems : []) : [];
  return { analysis, tooLong, costMessages, contentIssues, problems };
}
