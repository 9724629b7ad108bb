// "Find a recipient" (issue 26): a typed number is matched as digits, not as text. Every number chip
// is shown as +44…, so "0" found every one of them: digits now match the start of a number, as
// written in full (447700…) or as typed (07700…), and anywhere in it once four or more are typed
// (the end of a number someone remembers). A name matches anywhere in the chip's label as before.
import type { Chip } from './chip.ts';

/** Only digits and what numbers are written with (spaces, +, -, dots, brackets). */
const NUMBER_LIKE = /^[\d\s+\-().]+$/;
const digits = (s: string) => s.replace(/\D/g, '');

/** Whether `chip` (shown as `label`) matches `needle` (trimmed, lower-cased). */
export function chipMatches(chip: Chip, label: string, needle: string): boolean {
  if (!NUMBER_LIKE.test(needle)) return label.toLowerCase().includes(needle);
  const d = digits(needle);
  if (d === '') return false;
  const numbers =
    chip.kind === 'number'
      ? [chip.msisdn, digits(chip.input)]
      : chip.kind === 'invalid'
        ? [digits(chip.input)]
        : chip.kind === 'contact'
          ? [chip.contact.number, digits(chip.contact.numberTyped)]
          : [];
  return numbers.some((n) => n.startsWith(d) || (d.length >= 4 && n.includes(d)));
}
