// Issue 26: Compose's question before Send names the opted-out recipients.
import { describe, expect, it } from 'vitest';
import type { SendEstimate } from '../../../preload/api.ts';
import { optedOutQuestion } from '../../../renderer/views/compose/opted-out.ts';

const estimate = (over: Partial<SendEstimate>): SendEstimate => ({
  recipients: 3,
  invalid: 0,
  duplicates: 0,
  optedOut: 0,
  segments: 1,
  messages: 3,
  availableMessages: null,
  credit: null,
  affordableRecipients: null,
  wouldFail: 0,
  confirmAbove: 100,
  longMessage: false,
  needsConfirm: false,
  ...over,
});

describe('optedOutQuestion', () => {
  it('asks nothing when nobody opted out', () => {
    expect(optedOutQuestion(estimate({}))).toBeNull();
  });

  it('names contacts and numbers, and counts the ones not named', () => {
    const q = optedOutQuestion(
      estimate({
        optedOut: 23,
        optedOutNamed: [
          { number: '447700900401', name: 'Alice Smith' },
          { number: '447700900402', name: null },
        ],
      }),
    );
    expect(q?.title).toBe('23 recipients opted out');
    expect(q?.message).toBe(
      'Alice Smith (+447700900401), +447700900402 and 21 more are on the opt-out list and will not be sent to. Send to the other 3 recipients?',
    );
    expect(q?.confirmLabel).toBe('Send to the others');
  });
});
