// "Find a recipient" (issue 26): digits match numbers from their start, as written in full or as
// typed, and anywhere from four digits on; "0" no longer matches every +44… chip; a name matches
// anywhere in the label.
import { describe, expect, it } from 'vitest';
import { chipMatches } from '../../../renderer/views/compose/find-chips.ts';
import type { Chip } from '../../../renderer/views/compose/Recipients.tsx';

const number = (input: string, msisdn: string): Chip => ({ kind: 'number', key: input, input, msisdn });
const invalid = (input: string): Chip => ({ kind: 'invalid', key: input, input, reason: 'too short' });
const label = (c: Chip) => (c.kind === 'number' ? `+${c.msisdn}` : c.kind === 'invalid' ? c.input : '');
const find = (chips: Chip[], needle: string) =>
  chips.filter((c) => chipMatches(c, label(c), needle.trim().toLowerCase())).map(label);

const chips = [
  number('+44 7700 900123', '447700900123'),
  number('07700 900456', '447700900456'),
  number('+447400100000', '447400100000'),
  invalid('07400 12x'),
  invalid('abc'),
];

describe('finding a recipient', () => {
  it('does not match every number on "0"', () => {
    expect(find(chips, '0')).toEqual(['+447700900456', '07400 12x']);
  });
  it('matches the start of a number in full or as typed, with spaces and a plus', () => {
    expect(find(chips, '+44 77')).toEqual(['+447700900123', '+447700900456']);
    expect(find(chips, '07700')).toEqual(['+447700900456']);
  });
  it('matches anywhere once four digits are typed', () => {
    expect(find(chips, '0123')).toEqual(['+447700900123']);
    expect(find(chips, '123')).toEqual([]);
  });
  it('matches text anywhere in the label', () => {
    expect(find(chips, 'AB')).toEqual(['abc']);
    expect(find(chips, '12x')).toEqual(['07400 12x']);
  });
});
