// Issue 27 item 6 in office mode (docs/OFFICE.md "Sends"): a send to many keeps the recipients that
// have no listed conversation in the journal's lean table (outbox_recipients, app migration 055), not
// in `messages`. They are shared as its `messages` rows are (sends-local.ts): TEMP triggers on
// main.outbox_recipients, made only while office mode runs, queue each one journaled or changed by its
// key (batch_id, position) in the same queue and counter (office_send_changes, app migration 057), and
// the queue is read back here by that key. A lean recipient moved into `messages` (its conversation
// listed: migration 055's triggers delete it here and insert it there in one statement) is queued by
// its new message id through the `messages` trigger, with a higher seq: written to the office database
// as the same recipient (a send's recipient there is its send and number), its state as it was, never
// as a new one; the lean key queued before it then names that thread row, given once (recipientStates).
//
// A recipient's place among its send's is `recipientOrder` (the batch's seq in the job, then the
// position in the batch) for both tables, so another desk lists a send's recipients in the order the
// sending desk does whichever table holds each (a send journaled before app migration 057 keeps its
// message ids, its places as they were shared).
import type { AppDb } from '../store/db.ts';
import { rowAs, rowsAs } from '../store/rows.ts';
import { stmt } from '../../storage/sqlite.ts';

/** The recipient columns whose change is shared (those of `messages` the other trigger watches). */
export const WATCHED =
  'status, message_identifier, report, report_text, classification, receipt_report, receipt_at';

/**
 * App migration 059: a batch not ended yet holds its lean recipients as one value on its row
 * (main/store/outbox-pending.ts), its rows written when it ends (queued then by the triggers on the
 * table). While in the value, a recipient is queued by the same key when the batch is journaled and
 * when its state changes (claimed: 'sending'), and read back from the value (recipientStates).
 */
const QUEUE_VALUE = `INSERT INTO main.office_send_changes (batch_id, position)
  SELECT NEW.id, p.key FROM json_each(NEW.lean) p WHERE p.value IS NOT NULL;`;

/** The TEMP triggers queueing the lean table's recipients (created with the `messages` ones). */
export const LEAN_TRIGGERS = `
  CREATE TEMP TRIGGER IF NOT EXISTS office_lean_journaled AFTER INSERT ON main.outbox_recipients
    BEGIN INSERT INTO main.office_send_changes (batch_id, position) VALUES (NEW.batch_id, NEW.position); END;
  CREATE TEMP TRIGGER IF NOT EXISTS office_lean_changed AFTER UPDATE OF ${WATCHED} ON main.outbox_recipients
    BEGIN INSERT INTO main.office_send_changes (batch_id, position) VALUES (NEW.batch_id, NEW.position); END;
  CREATE TEMP TRIGGER IF NOT EXISTS office_lean_pending AFTER INSERT ON main.outbox_batches
    WHEN NEW.lean IS NOT NULL BEGIN ${QUEUE_VALUE} END;
  CREATE TEMP TRIGGER IF NOT EXISTS office_lean_claimed AFTER UPDATE OF state ON main.outbox_batches
    WHEN NEW.lean IS NOT NULL AND OLD.state IS NOT NEW.state BEGIN ${QUEUE_VALUE} END;`;

/** Positions per batch in `recipientOrder` (a batch holds at most LIMITS.maxRecipientsPerRequest). */
const PER_BATCH = 1_000_000;

/**
 * A recipient's place among its send's, the same for a `messages` row and a lean one: its batch's
 * seq in the job, then its position in the batch (the order createJob journaled them). SQL over a
 * row with `seq` (its batch's, or null) and `position`; `fallback` when it has no batch.
 */
export const recipientOrder = (seq: string, position: string, fallback: string): string =>
  `CASE WHEN ${seq} IS NULL OR ${position} IS NULL THEN ${fallback} ELSE ${seq} * ${PER_BATCH} + ${position} END`;

/** A recipient's state as it is shared (from either table). */
export interface RecipientState {
  /** The change queue's key of it: `m<message id>` or `r<batch id>:<position>`. */
  key: string;
  job_id: number;
  peer: string;
  text: string;
  /** Its place among its send's (recipientOrder). */
  place: number;
  status: string;
  message_identifier: string | null;
  report: string | null;
  report_text: string | null;
  classification: string | null;
  receipt_report: string | null;
  receipt_at: number | null;
  sent_at: number | null;
}

const STATE = [
  'peer',
  'text',
  'status',
  'message_identifier',
  'report',
  'report_text',
  'classification',
  'receipt_report',
  'receipt_at',
  'sent_at',
];
/** The state columns of the table aliased `t`. */
const stateOf = (t: string): string => STATE.map((c) => `${t}.${c}`).join(', ');

/** A queued change's key (as RecipientState.key). */
export const changeKey = (c: {
  message_id: number | null;
  batch_id: number | null;
  position: number | null;
}): string => (c.message_id !== null ? `m${c.message_id}` : `r${c.batch_id}:${c.position}`);

/**
 * The states of the recipients `keys` name (changeKey), as they are now: the `messages` rows by id,
 * the lean rows by (batch_id, position). A lean key whose row has moved into `messages` names its
 * thread row (it keeps its batch and position): its message id was queued when it moved if this
 * connection moved it, not if another one did (`messenger inbox` storing a reply: no TEMP trigger
 * there); a message whose id is among `keys` too is given once. A key of a row deleted with its send
 * names nothing.
 */
export function recipientStates(app: AppDb, keys: Iterable<string>): RecipientState[] {
  // a send journaled before app migration 057 keeps its message ids as places (shared so before)
  const before = Number(
    rowAs<{ value: string }>(
      stmt(app.db, "SELECT value FROM office_state WHERE key = 'send-places-by-batch-after-job'").get(),
    )?.value ?? 0,
  );
  const ids: number[] = [];
  const lean: Array<[number, number]> = [];
  for (const k of keys)
    if (k.startsWith('m')) ids.push(Number(k.slice(1)));
    else {
      const [b, p] = k.slice(1).split(':');
      lean.push([Number(b), Number(p)]);
    }
  const states: RecipientState[] = [];
  if (ids.length > 0)
    states.push(
      ...rowsAs<RecipientState>(
        stmt(
          app.db,
          `SELECT 'm' || m.id AS key, m.job_id, ${stateOf('m')},
                  CASE WHEN m.job_id <= ?2 THEN m.id ELSE ${recipientOrder('b.seq', 'm.position', 'm.id')} END
                    AS place
             FROM json_each(?1) AS k CROSS JOIN messages m ON m.id = k.value
             LEFT JOIN outbox_batches b ON b.id = m.batch_id`,
        ).all(JSON.stringify(ids), before),
      ),
    );
  // still in its batch's value (app migration 059): not written as a row yet
  const rows = lean.length > 0 ? valueStates(app, lean, states) : [];
  if (rows.length > 0)
    states.push(
      ...rowsAs<RecipientState>(
        stmt(
          app.db,
          `SELECT 'r' || r.batch_id || ':' || r.position AS key, r.job_id,
                  ${stateOf('r')},
                  ${recipientOrder('b.seq', 'r.position', 'r.position')} AS place
             FROM json_each(?) AS k
             CROSS JOIN outbox_recipients r ON r.batch_id = k.value ->> 0 AND r.position = k.value ->> 1
             JOIN outbox_batches b ON b.id = r.batch_id`,
        ).all(JSON.stringify(rows)),
      ),
    );
  const found = new Set(states.map((s) => s.key));
  const queued = new Set(ids);
  const moved = lean.filter(([b, p]) => !found.has(`r${b}:${p}`));
  if (moved.length > 0)
    states.push(
      ...rowsAs<RecipientState & { id: number }>(
        stmt(
          app.db,
          `SELECT 'r' || m.batch_id || ':' || m.position AS key, m.id, m.job_id, ${stateOf('m')},
                  ${recipientOrder('b.seq', 'm.position', 'm.id')} AS place
             FROM json_each(?) AS k
             CROSS JOIN messages m ON m.batch_id = k.value ->> 0 AND m.position = k.value ->> 1
             JOIN outbox_batches b ON b.id = m.batch_id
            WHERE m.direction = 'out' AND m.job_id IS NOT NULL`,
        ).all(JSON.stringify(moved)),
      )
        .filter((m) => !queued.has(m.id))
        .map(({ id: _id, ...state }) => state),
    );
  return states;
}

/**
 * The states of the lean keys whose batch still holds them in its value (app migration 059), added to
 * `states`: each batch read and its value parsed once (a JSON walk per key in SQL cost ~1.5× the
 * rows' lookups). The other keys are returned: rows of `outbox_recipients` (or moved into `messages`).
 */
function valueStates(
  app: AppDb,
  lean: ReadonlyArray<[number, number]>,
  states: RecipientState[],
): Array<[number, number]> {
  const batches = new Map(
    rowsAs<{
      id: number;
      job_id: number;
      seq: number;
      state: string;
      started_at: number | null;
      lean: string;
      lean_text: string | null;
    }>(
      stmt(
        app.db,
        `SELECT id, job_id, seq, state, started_at, lean, lean_text FROM outbox_batches
          WHERE id IN (SELECT value FROM json_each(?)) AND lean IS NOT NULL`,
      ).all(JSON.stringify([...new Set(lean.map(([b]) => b))])),
    ).map((b) => [b.id, { ...b, peers: JSON.parse(b.lean) as Array<string | null> }]),
  );
  const rest: Array<[number, number]> = [];
  for (const [batchId, position] of lean) {
    const b = batches.get(batchId);
    const peer = b?.peers[position];
    if (b === undefined || typeof peer !== 'string') {
      rest.push([batchId, position]);
      continue;
    }
    states.push({
      key: `r${batchId}:${position}`,
      job_id: b.job_id,
      peer,
      text: b.lean_text ?? '',
      place: b.seq * PER_BATCH + position, // recipientOrder
      status: b.state,
      message_identifier: null,
      report: null,
      report_text: null,
      classification: null,
      receipt_report: null,
      receipt_at: null,
      sent_at: b.started_at,
    });
  }
  return rest;
}

/**
 * The lean recipients of `jobIds` (a desk joining an office shares the sends it made before,
 * sends-join.ts) queued as if just journaled, in their order. Call inside a transaction.
 */
export function queueLean(app: AppDb, jobIds: readonly number[]): void {
  stmt(
    app.db,
    `INSERT INTO office_send_changes (batch_id, position)
     SELECT batch_id, position FROM (
       SELECT b.job_id, b.seq, r.batch_id, r.position FROM outbox_batches b JOIN outbox_recipients r ON r.batch_id = b.id
        WHERE b.job_id IN (SELECT value FROM json_each(?1))
       UNION ALL
       SELECT b.job_id, b.seq, r.batch_id, r.position FROM outbox_batches b JOIN outbox_lean_pending r ON r.batch_id = b.id
        WHERE b.job_id IN (SELECT value FROM json_each(?1)))
      ORDER BY job_id, seq, position`,
  ).run(JSON.stringify(jobIds));
}

/** The job of this desk's lean recipient with `messageIdentifier` (a receipt for it), or null. */
export function leanJobOf(app: AppDb, messageIdentifier: string): number | null {
  return (
    rowAs<{ job_id: number }>(
      stmt(app.db, 'SELECT job_id FROM outbox_recipients WHERE message_identifier = ? LIMIT 1').get(
        messageIdentifier,
      ),
    )?.job_id ?? null
  );
}
