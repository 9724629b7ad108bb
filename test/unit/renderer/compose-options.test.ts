// issue 16: Compose's Advanced options for rich content reach the spec's PhoneModel and, for a WAP
// push, DisableRepurposing; the content the service checks (protocol contentProblems) accepts them.
import { describe, expect, it } from 'vitest';
import { contentProblems, type Content } from '../../../protocol/content.ts';
import { composeContent } from '../../../renderer/views/compose/useComposeValidation.ts';
import { DEFAULT_OPTIONS } from '../../../renderer/views/compose/Options.tsx';
import type { ContentDraft } from '../../../renderer/views/media/types.ts';

const wap: ContentDraft = {
  kind: 'wapPush',
  text: 'Our logo',
  fields: { WAPPushFileName1: 'logo.png', WAPPushFileData1: '89504E47' },
  problems: [],
  summary: 'logo.png',
};

/** The sendmms fields of a rich content (undefined for a text). */
const fieldsOf = (c: Content | null): Record<string, string> | undefined =>
  c !== null && 'fields' in c ? c.fields : undefined;

describe('Compose Advanced options', () => {
  it('a WAP push carries PhoneModel and DisableRepurposing=1 when chosen', () => {
    const content = composeContent({
      kind: 'wapPush',
      text: '',
      richDraft: wap,
      effectiveMake: 'Nokia',
      options: { ...DEFAULT_OPTIONS, phoneModel: ' 6230i ', disableRepurposing: true },
    });
    expect(fieldsOf(content)).toMatchObject({
      PhoneMake: 'Nokia',
      PhoneModel: '6230i',
      DisableRepurposing: '1',
    });
    expect(contentProblems('sendmms', content!)).toEqual([]);
  });

  it('neither is sent when not chosen, and DisableRepurposing only with a WAP push', () => {
    const plain = composeContent({
      kind: 'wapPush',
      text: '',
      richDraft: wap,
      effectiveMake: '',
      options: DEFAULT_OPTIONS,
    });
    expect(fieldsOf(plain)).not.toHaveProperty('PhoneModel');
    expect(fieldsOf(plain)).not.toHaveProperty('DisableRepurposing');
    const vcard: ContentDraft = {
      kind: 'vcard',
      text: '',
      fields: { vCard: 'BEGIN:VCARD\r\nEND:VCARD' },
      problems: [],
      summary: '',
    };
    const other = composeContent({
      kind: 'vcard',
      text: '',
      richDraft: vcard,
      effectiveMake: '',
      options: { ...DEFAULT_OPTIONS, disableRepurposing: true },
    });
    expect(fieldsOf(other)).not.toHaveProperty('DisableRepurposing');
  });
});
