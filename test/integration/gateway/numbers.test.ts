// NumberChecker splits a large recipient list between the main thread and a worker thread when its
// first numbers were slow to check (issue 15: usual numbers are checked faster than a round trip to
// the worker): the results must be exactly checkRecipient's, in SendTo order, worker or not.
import { afterEach, describe, expect, it } from 'vitest';
import { NumberChecker } from '../../../gateway/numbers.ts';
import { checkRecipient } from '../../../gateway/recipient-check.ts';

const checkers: NumberChecker[] = [];
afterEach(async () => {
  for (const c of checkers.splice(0)) await c.close();
});

function mixedList(n: number): string[] {
  const bad = ['4470', '+447700900123', '07700900123', '44x7700900123', '999999999999', ' 447700900124 '];
  return Array.from({ length: n }, (_, i) =>
    i % 7 === 3 ? bad[i % bad.length]! : String(447400000000 + i * 13),
  );
}

describe('NumberChecker', () => {
  it('gives checkRecipient’s verdicts in order for a 350-number list (split across the worker)', async () => {
    const checker = new NumberChecker({ slowCheckMs: 0 });
    checkers.push(checker);
    const list = mixedList(350);
    let waited = 0;
    const got = await checker.check(list, () => waited++);
    expect(got).toEqual(list.map(checkRecipient));
    expect(got.filter((r) => !r.ok).length).toBeGreaterThan(10);
    expect(waited).toBe(1);
  });

  it('checks everything on the main thread when the first numbers were quick', async () => {
    const checker = new NumberChecker({ slowCheckMs: Infinity });
    checkers.push(checker);
    const list = mixedList(350);
    let waited = 0;
    expect(await checker.check(list, () => waited++)).toEqual(list.map(checkRecipient));
    expect(waited).toBe(0);
  });

  it('keeps the order with concurrent lists', async () => {
    const checker = new NumberChecker({ slowCheckMs: 0 });
    checkers.push(checker);
    const lists = [mixedList(100), mixedList(350).reverse(), mixedList(64)];
    const got = await Promise.all(lists.map((l) => checker.check(l)));
    got.forEach((g, i) => expect(g).toEqual(lists[i]!.map(checkRecipient)));
  });

  it('checks on the main thread once closed (no worker)', async () => {
    const checker = new NumberChecker();
    await checker.close();
    const list = mixedList(100);
    expect(await checker.check(list)).toEqual(list.map(checkRecipient));
  });
});
