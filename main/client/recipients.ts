// Recipients of a send: normalised to the spec's international form (protocol/msisdn.ts), duplicates
// removed (first occurrence keeps its place), and split into requests of at most 350 numbers (spec 8).
import { LIMITS } from '../../protocol/limits.ts';
import { normalizeMsisdn } from '../../protocol/msisdn.ts';
import { msisdnProblem } from '../../protocol/validate.ts';
import type { Problem } from '../../protocol/validate.ts';

export interface PreparedRecipients {
  /** Unique normalised numbers in the user's order. */
  numbers: string[];
  duplicatesRemoved: number;
  /** One problem per entry that is not a phone number; nothing may be sent while there are any. */
  problems: Problem[];
}

/**
 * `normalized`: the numbers come from a store that already normalised them with protocol/msisdn.ts
 * (the app's contacts and groups): only their form is checked (protocol/validate.ts msisdnProblem),
 * which is ~100× cheaper than parsing each with libphonenumber again. Anything typed or pasted by a
 * user goes through normalizeMsisdn.
 */
export function prepareRecipients(
  inputs: Iterable<string>,
  defaultCountry?: string,
  field = 'SendTo',
  normalized = false,
): PreparedRecipients {
  const seen = new Set<string>();
  const numbers: string[] = [];
  const problems: Problem[] = [];
  let duplicatesRemoved = 0;
  for (const input of inputs) {
    const result = normalized ? checkNormalized(input) : normalizeMsisdn(input, defaultCountry);
    if (!result.ok) {
      problems.push({ field, rule: 'msisdn', value: input, message: `"${input}": ${result.reason}` });
      continue;
    }
    if (seen.has(result.msisdn)) {
      duplicatesRemoved++;
      continue;
    }
    seen.add(result.msisdn);
    numbers.push(result.msisdn);
  }
  return { numbers, duplicatesRemoved, problems };
}

/** Split into requests of at most `size` (default: the spec's 350) numbers, order kept. */
export function batches<T>(items: readonly T[], size: number = LIMITS.maxRecipientsPerRequest): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`batch size must be a positive integer: ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function checkNormalized(input: string): { ok: true; msisdn: string } | { ok: false; reason: string } {
  const problem = msisdnProblem(input);
  return problem === undefined ? { ok: true, msisdn: input } : { ok: false, reason: problem };
}
