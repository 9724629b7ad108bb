// Issue 16 review (finding 3): a send whose book or Cc/Bcc reach is not known is confirmed first,
// however few recipients the estimate counts.
import { describe, expect, it } from 'vitest';
import { estimateSend } from '../../../main/services/send-plan.ts';

describe('estimateSend with server books', () => {
  const plan = { numbers: ['447700900901'], invalid: [], duplicates: 0 };
  it('asks first when any book’s reach is unknown, not when every reach is known and small', () => {
    const known = estimateSend(plan, { kind: 'text', text: 'hi' }, null, 50, undefined, {
      reach: 3,
      reached: [{ label: 'Club', reach: 3 }],
    });
    expect(known).toMatchObject({ recipients: 4, needsConfirm: false });
    const unknown = estimateSend(plan, { kind: 'text', text: 'hi' }, null, 50, undefined, {
      reach: 3,
      reached: [
        { label: 'Club', reach: 3 },
        { label: 'CcAddressBook Big', reach: null },
      ],
    });
    expect(unknown).toMatchObject({ recipients: 4, needsConfirm: true });
  });
});
