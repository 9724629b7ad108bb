// Compose's content: the kind (text, flash, or a rich kind from the media registry), the phone make
// the kind needs, and either the text box with its GSM-7/UCS-2 counter or the kind's editor.
import { useRef } from 'react';
import type { Credit, DeliveryOption, MergeMeasure, Template } from '../../../domain/index.ts';
import { RICH_KINDS, type ContentKind, type RichKind } from '../../../protocol/content.ts';
import { PHONE_MAKE_REQUIRED, requiredPhoneMake, type PhoneMakeOnly } from '../../../protocol/fields.ts';
import { LIMITS, PHONE_MAKES, type PhoneMake } from '../../../protocol/limits.ts';
import { SMS_SEGMENT, type TextAnalysis } from '../../../protocol/sms.ts';
import { plural } from '../../format.ts';
import { EDITORS } from '../media/registry.ts';
import type { EditorReport, EditorState } from '../media/types.ts';
import { TemplatePicker } from './Templates.tsx';
import { costText, rateOf, rateText } from './rates.ts';

/** Whether this kind's request needs PhoneMake (spec 2.4): fixed (a group graphic's Nokia), chosen, or none. */
export function phoneMakeRule(kind: ContentKind): { fixed: PhoneMakeOnly } | 'choose' | 'none' {
  const fixed = requiredPhoneMake(kind);
  if (fixed) return { fixed };
  return (PHONE_MAKE_REQUIRED as readonly string[]).includes(kind) ? 'choose' : 'none';
}

/** The PhoneMake a send of this kind carries ('' for none). */
export function effectivePhoneMake(kind: ContentKind, chosen: PhoneMake | ''): PhoneMake | '' {
  const rule = phoneMakeRule(kind);
  return typeof rule === 'object' ? rule.fixed.make : rule === 'choose' ? chosen : '';
}

export function ContentChoice({
  kind,
  onKind,
  phoneMake,
  onPhoneMake,
}: {
  kind: ContentKind;
  onKind: (kind: ContentKind) => void;
  phoneMake: PhoneMake | '';
  onPhoneMake: (make: PhoneMake | '') => void;
}) {
  const makeRule = phoneMakeRule(kind);
  const fixedMake = typeof makeRule === 'object' ? makeRule.fixed : null;
  return (
    <div className="row wrap content-choice">
      <div className="labelled">
        <label htmlFor="content-kind">Content</label>
        <select id="content-kind" value={kind} onChange={(e) => onKind(e.target.value as ContentKind)}>
          <option value="text">Text</option>
          <option value="flash">Flash</option>
          {RICH_KINDS.map((k) => (
            <option key={k} value={k}>
              {EDITORS[k].label}
            </option>
          ))}
        </select>
      </div>
      {makeRule !== 'none' ? (
        <div className="labelled">
          <label htmlFor="phone-make">Phone make</label>
          <select
            id="phone-make"
            value={effectivePhoneMake(kind, phoneMake)}
            disabled={fixedMake !== null}
            aria-describedby={fixedMake ? 'phone-make-note' : undefined}
            onChange={(e) => onPhoneMake(e.target.value as PhoneMake | '')}
          >
            <option value="">Choose…</option>
            {PHONE_MAKES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {fixedMake ? (
        <span id="phone-make-note" className="muted small">
          {fixedMake.what} are sent to {fixedMake.make} handsets only.
        </span>
      ) : null}
    </div>
  );
}

/** The rich kind's editor (started from `saved`, a restored draft's state), with the summary of what it will send. */
export function RichContent({
  kind,
  richDraft,
  onDraft,
  saved,
}: {
  kind: RichKind;
  richDraft: EditorReport | null;
  onDraft: (draft: EditorReport) => void;
  saved?: EditorState | undefined;
}) {
  const editor = EDITORS[kind];
  return (
    <div className="field media" aria-label={`${editor.label} content`} role="group">
      <editor.Editor key={kind} onChange={onDraft} saved={saved} />
      {richDraft && richDraft.kind === kind ? (
        <p className="muted small" data-testid="content-summary">
          {richDraft.summary}
        </p>
      ) : null}
    </div>
  );
}

export function MessageBox({
  text,
  onText,
  templates,
  analysis,
  tooLong,
  costMessages,
  credit,
  merge = null,
  onManageTemplates,
  delivery = 'Default',
}: {
  text: string;
  onText: (text: string) => void;
  templates: Template[];
  /** Opens the templates dialog (issue 26). */
  onManageTemplates: () => void;
  /** The send's delivery option: the credit is counted at its price (issue 26). */
  delivery?: DeliveryOption;
  analysis: TextAnalysis;
  tooLong: boolean;
  costMessages: number;
  credit: Credit | null;
  /** A mail-merge text measured per recipient: the counter is the longest text's, the cost everyone's. */
  merge?: MergeMeasure | null;
}) {
  const characters = analysis.characters;
  const box = useRef<HTMLTextAreaElement>(null);
  const rate = rateOf(credit, delivery);
  return (
    <div className="field">
      <div className="row spread">
        <label htmlFor="message">Message</label>
        <TemplatePicker templates={templates} box={box} onManage={onManageTemplates} />
      </div>
      <textarea
        ref={box}
        id="message"
        rows={6}
        value={text}
        aria-invalid={tooLong}
        aria-describedby="counter"
        onChange={(e) => onText(e.target.value)}
      />
      <div
        id="counter"
        className={tooLong ? 'counter error' : 'counter'}
        aria-live="polite"
        data-testid="counter"
      >
        {merge ? <span>Longest merged text:</span> : null}
        <span>{analysis.encoding}</span>
        <span>
          {characters} character{characters === 1 ? '' : 's'}
        </span>
        <span>
          {analysis.segments} segment{analysis.segments === 1 ? '' : 's'}
        </span>
        <span>{analysis.remaining} left in segment</span>
        <span>
          ≈ {costMessages.toLocaleString()} message credit{costMessages === 1 ? '' : 's'}
          {rate && costMessages > 0 ? ` (${costText(rate, costMessages)})` : null}
        </span>
        {rate && rate.messages !== null ? (
          <span data-testid="counter-available">
            of {rate.messages.toLocaleString()} available {rateText(rate)}
          </span>
        ) : credit && credit.availableMessages !== null ? (
          <span>of {credit.availableMessages} available</span>
        ) : null}
      </div>
      {merge?.longest ? <MergeNote merge={merge} /> : null}
      {analysis.nonGsm.length ? (
        <p className="muted small">
          UCS-2 because of:{' '}
          {analysis.nonGsm
            .slice(0, 10)
            .map((ch) => `“${ch}”`)
            .join(' ')}{' '}
          ({SMS_SEGMENT.ucs2Single} characters per SMS instead of {SMS_SEGMENT.gsm7Single})
        </p>
      ) : null}
      {tooLong ? (
        <p className="error" role="alert">
          Too long: {analysis.segments} parts, at most {LIMITS.maxMessageParts} can be joined into one
          message.
        </p>
      ) : null}
    </div>
  );
}

/** Who gets the longest merged text, and how the recipients' texts differ. */
function MergeNote({ merge }: { merge: MergeMeasure }) {
  const longest = merge.longest!;
  const who = longest.name ? `${longest.name} (+${longest.to})` : `+${longest.to}`;
  const preview = longest.text.length > 80 ? `${longest.text.slice(0, 80)}…` : longest.text;
  return (
    <p className="muted small" data-testid="merge-note">
      Mail merge: the longest text goes to {who}: “{preview}”. {plural(merge.recipients, 'recipient')},{' '}
      {plural(merge.distinctTexts, 'different text')}
      {merge.withoutContact > 0
        ? `; ${plural(merge.withoutContact, 'number')} without a contact ${merge.withoutContact === 1 ? 'takes' : 'take'} the fallback`
        : ''}
      .
    </p>
  );
}
