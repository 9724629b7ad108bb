// The per-recipient number check of the submit pipeline (pure: used on the main thread and in
// ./number-worker.ts): the spec's form first (digits with country code, no '+'), then a real
// numbering-plan check with libphonenumber (protocol/msisdn.ts).
import { normalizeMsisdn } from '../protocol/msisdn.ts';
import { msisdnProblem } from '../protocol/validate.ts';

export type RecipientCheck = { ok: true; msisdn: string } | { ok: false; reason: string };

export function checkRecipient(raw: string): RecipientCheck {
  const trimmed = raw.trim();
  const formProblem = msisdnProblem(trimmed);
  if (formProblem !== undefined) return { ok: false, reason: formProblem };
  const r = normalizeMsisdn(trimmed);
  return r.ok ? { ok: true, msisdn: r.msisdn } : { ok: false, reason: r.reason };
}
