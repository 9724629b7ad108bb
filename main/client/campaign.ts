// A send to many recipients as GatewayClient makes it: recipients normalised and cut into requests
// of at most the spec's 350, every request checked with protocol/ before the first is sent (all
// problems at once), then the requests one after another, stopping at a whole-account error.
// It serves the CLI (sendSms, sendMms): the app journals its own batches and sends each through
// GatewayClient.sendFormFields (issue 27), planned once by its services.
import { encodeForm, FORM_CONTENT_TYPE } from '../../protocol/form.ts';
import type { Operation } from '../../protocol/fields.ts';
import { LIMITS, PER_RECIPIENT_RESPONSE_FORMAT } from '../../protocol/limits.ts';
import { validateRequest } from '../../protocol/validate.ts';
import type { Problem } from '../../protocol/validate.ts';
import { interpretRecords, interpretTransport } from './interpret.ts';
import type { BatchInterpretation } from './interpret.ts';
import { batches, prepareRecipients } from './recipients.ts';
import { addressBooksOf } from './requests.ts';
import type { CampaignFields, CampaignOptions, Fields, RecipientOptions } from './requests.ts';
import { summarize, ValidationError } from './results.ts';
import type { RecipientResult, SendResult, WholeRequestError } from './results.ts';
import type { PostRequest, TransportResult } from './transport.ts';

export type Post = (req: PostRequest) => Promise<TransportResult>;

/** Every problem of every request (the same problem in every request said once); PINs hidden. */
export function validateFieldSets(
  op: Operation,
  fieldSets: readonly Fields[],
  extra: readonly Problem[] = [],
): void {
  const problems: Problem[] = [...extra];
  const seen = new Set<string>();
  for (const fields of fieldSets.length > 0 ? fieldSets : [{}]) {
    for (const p of validateRequest(op, fields)) {
      // SendTo problems of every request are wanted; the same problem in every request is said once.
      const key = `${p.field}\u0000${p.rule}\u0000${p.field === 'SendTo' || p.field === 'N' ? p.value : ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(p.field === 'PIN' ? { ...p, value: p.value === undefined ? undefined : '(hidden)' } : p);
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
}

export interface CampaignSetup {
  op: 'sendsms' | 'sendmms';
  path: string;
  fields: CampaignFields;
  recipients: RecipientOptions;
  defaultCountry: string | undefined;
  batchSize: number;
  /**
   * How many recipients the first-only fields reach: Cc/Bcc numbers and the members of every address
   * book (sized with QueryAddressBook); undefined when a book could not be sized.
   */
  firstReach?: number | undefined;
}

/** sendsms / sendmms with ResponseFormat 3 to every recipient of `setup`. */
export async function runCampaign(
  post: Post,
  setup: CampaignSetup,
  options: CampaignOptions,
): Promise<SendResult> {
  const { base, first, extraLabels } = setup.fields;
  const prepared = prepareRecipients(
    setup.recipients.to ?? [],
    setup.defaultCountry,
    'SendTo',
    setup.recipients.recipientsNormalized === true,
  );
  const hasFirstExtras = Object.keys(first).length > 0;
  const extraProblems: Problem[] = [];
  let groups: string[][];
  if (!hasFirstExtras) {
    groups = batches(prepared.numbers, setup.batchSize);
  } else {
    // The gateway counts Cc/Bcc numbers and every book member against the per-request limit: the
    // first request takes only the SendTo numbers that still fit, and none beside a book of unknown size.
    const reach = setup.firstReach ?? extraLabels.length;
    const unsized = setup.firstReach === undefined && addressBooksOf(first).length > 0;
    if (reach > LIMITS.maxRecipientsPerRequest)
      extraProblems.push({
        field: addressBooksOf(first)[0] ?? 'SendCc',
        rule: 'maxRecipients',
        value: String(reach),
        message: `The Cc/Bcc numbers and address books reach ${reach} recipients; one request takes at most ${LIMITS.maxRecipientsPerRequest}`,
      });
    const room = unsized ? 0 : Math.max(0, setup.batchSize - reach);
    groups = [prepared.numbers.slice(0, room), ...batches(prepared.numbers.slice(room), setup.batchSize)];
  }
  const labels = groups.map((g, i) => (i === 0 ? [...g, ...extraLabels] : g));
  const fieldSets = groups.map((g, i) => {
    const f: Fields = { ...base };
    if (g.length > 0) f.SendTo = g.join(',');
    if (i === 0) Object.assign(f, first);
    f.ResponseFormat = PER_RECIPIENT_RESPONSE_FORMAT;
    return f;
  });
  validateFieldSets(setup.op, fieldSets, [...prepared.problems, ...extraProblems]);
  const books = addressBooksOf(first);
  const addressBook = books.length > 0 ? books.join(', ') : undefined;
  return runRequests(post, labels, fieldSets, setup.path, prepared.duplicatesRemoved, options, (body, l) =>
    interpretRecords(body, l, addressBook),
  );
}

/**
 * Send the prepared requests one after another; stop at a whole-account error. Deliberately not
 * concurrent: with two requests in flight, the one after an out-of-credit or invalid-login answer
 * would already be on its way, and "the rest is never sent" could not be kept. The client is not
 * the bottleneck (bench/client.ts: >50,000 recipients/s against a no-work peer).
 */
export async function runRequests(
  post: Post,
  labels: string[][],
  fieldSets: Fields[],
  path: string,
  duplicatesRemoved: number,
  options: CampaignOptions,
  interpret: (body: string, labels: string[]) => BatchInterpretation,
): Promise<SendResult> {
  const total = labels.reduce((n, l) => n + l.length, 0);
  const recipients: RecipientResult[] = [];
  let requests = 0;
  let error: WholeRequestError | undefined;
  let libraryNumber: string | undefined;
  let cancelled = false;
  let stopReason: string | undefined;
  for (let i = 0; i < fieldSets.length; i++) {
    const batchLabels = labels[i] ?? [];
    const fields = fieldSets[i] ?? {};
    if (stopReason === undefined && options.signal?.aborted === true) {
      cancelled = true;
      stopReason = 'not sent: cancelled';
    }
    if (stopReason !== undefined) {
      for (const number of batchLabels) recipients.push({ number, status: 'not-sent', text: stopReason });
      continue;
    }
    const request = i + 1;
    const res = await post({ path, body: encodeForm(fields), contentType: FORM_CONTENT_TYPE });
    if (res.kind !== 'unsent') requests++;
    const outcome = interpretTransport(res, batchLabels, interpret);
    for (const r of outcome.results) {
      r.request = request;
      if (res.kind !== 'unsent') r.server = res.server;
      recipients.push(r);
    }
    if (outcome.libraryNumber !== undefined) libraryNumber ??= outcome.libraryNumber;
    if (outcome.error !== undefined) error ??= { ...outcome.error, request };
    if (outcome.stop) {
      stopReason = `not sent: stopped after request ${request} (${outcome.error?.message ?? 'error'})`;
    }
    options.onProgress?.({ done: recipients.length, total, requests });
  }
  if (recipients.length !== total) options.onProgress?.({ done: recipients.length, total, requests });
  return {
    ...summarize(recipients),
    recipients,
    requests,
    ...(error !== undefined ? { error } : {}),
    ...(libraryNumber !== undefined ? { libraryNumber } : {}),
    duplicatesRemoved,
    cancelled,
  };
}
