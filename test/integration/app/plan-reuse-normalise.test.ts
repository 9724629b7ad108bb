// Issue 27 item 6: Compose asks send.estimate before send.submit of the same request; the submit reuses
// the estimate's typed numbers as normalised (same inputs, same country) instead of normalising each
// again. Counted by wrapping protocol/msisdn.ts's normalizeMsisdn (the real function does the work;
// the wrapper only counts the calls made with this test's typed inputs).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInApp, jobFinished as finished } from '../../support/app.ts';
import type * as Msisdn from '../../../protocol/msisdn.ts';

const calls = vi.hoisted(() => ({ inputs: new Map<string, number>() }));
vi.mock('../../../protocol/msisdn.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Msisdn>();
  return {
    ...real,
    normalizeMsisdn: (input: string, country?: string) => {
      calls.inputs.set(input, (calls.inputs.get(input) ?? 0) + 1);
      return real.normalizeMsisdn(input, country);
    },
  };
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const typed = ['07700 900731', '07700 900732', '07700 900733', '07700 900731', 'not a number'];
/** Calls made with any of `inputs` (each entry typed once per normalisation: a repeat is a call of its own). */
const countOf = (inputs: readonly string[]) =>
  [...new Set(inputs)].map((i) => calls.inputs.get(i) ?? 0).reduce((a, b) => a + b, 0);

describe('a send estimated first normalises its typed numbers once', () => {
  it('the submit after the estimate of the same request does not normalise them again', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-plan-normalise-');
    const request = { recipients: typed, content: { kind: 'text' as const, text: 'Once' } };
    calls.inputs.clear();
    expect(await a.api.send.estimate(request)).toMatchObject({ recipients: 3, duplicates: 1, invalid: 1 });
    const afterEstimate = countOf(typed);
    expect(afterEstimate).toBe(typed.length);
    const sent = await a.api.send.submit(request);
    expect(countOf(typed)).toBe(afterEstimate);
    expect(sent.invalid).toEqual([{ input: 'not a number', reason: expect.any(String) }]);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.recipients(sent.job.id)).map((o) => o.to)).toEqual([
      '447700900731',
      '447700900732',
      '447700900733',
    ]);
  });

  it('a submit of other numbers than the estimate normalises its own', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-plan-normalise-');
    await a.api.send.estimate({ recipients: typed, content: { kind: 'text', text: 'Once' } });
    calls.inputs.clear();
    const other = ['07700 900741', '07700 900742'];
    const sent = await a.api.send.submit({ recipients: other, content: { kind: 'text', text: 'Once' } });
    expect(countOf(other)).toBe(2);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.recipients(sent.job.id)).map((o) => o.to)).toEqual([
      '447700900741',
      '447700900742',
    ]);
  });

  it('an array changed after its estimate is planned as it is at submit', async () => {
    const { a } = await signedInApp(cleanups, 'messenger-plan-normalise-');
    const recipients = ['07700 900751', '07700 900752'];
    await a.api.send.estimate({ recipients, content: { kind: 'text', text: 'Once' } });
    recipients[1] = '07700 900753';
    calls.inputs.clear();
    const sent = await a.api.send.submit({ recipients, content: { kind: 'text', text: 'Once' } });
    expect(countOf(recipients)).toBe(2);
    await finished(a, sent.job.id);
    expect((await a.api.outbox.recipients(sent.job.id)).map((o) => o.to)).toEqual([
      '447700900751',
      '447700900753',
    ]);
  });
});
