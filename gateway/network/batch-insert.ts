// Multi-row inserts for the network's two write-heavy tables (outbound_pdus, delivery_receipts).
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { stmt } from '../store/db.ts';

/**
 * Rows inserted up to BATCH_ROWS at a time with one multi-row INSERT … VALUES (…), (…): one call
 * into SQLite per batch instead of one per row (the drain stores two rows per message).
 */
const BATCH_ROWS = 64;

export class BatchInsert {
  private readonly db: DatabaseSync;
  private readonly head: string;
  private readonly columns: number;
  private values: SQLInputValue[] = [];
  private rows = 0;

  constructor(db: DatabaseSync, head: string, columns: number) {
    this.db = db;
    this.head = head;
    this.columns = columns;
  }

  add(...row: SQLInputValue[]): void {
    this.values.push(...row);
    if (++this.rows === BATCH_ROWS) this.flush();
  }

  flush(): void {
    if (this.rows === 0) return;
    const tuple = `(${Array.from({ length: this.columns }, () => '?').join(', ')})`;
    stmt(this.db, `${this.head} VALUES ${Array.from({ length: this.rows }, () => tuple).join(', ')}`).run(
      ...this.values,
    );
    this.values = [];
    this.rows = 0;
  }
}

export interface NetworkSink {
  pdus: BatchInsert;
  receipts: BatchInsert;
  /** flush both before the transaction ends */
  flush(): void;
}

/** Multi-row inserts for PDUs and receipts (flush before the transaction ends). */
export function networkSink(db: DatabaseSync): NetworkSink {
  const pdus = new BatchInsert(
    db,
    `INSERT OR IGNORE INTO outbound_pdus (message_identifier, account_id, recipient, part, parts, dcs, pid, udh, user_data, pdu, summary)`,
    11,
  );
  const receipts = new BatchInsert(
    db,
    `INSERT INTO delivery_receipts (message_identifier, account_id, recipient, part, report, source, status, due_at)`,
    8,
  );
  return {
    pdus,
    receipts,
    flush() {
      pdus.flush();
      receipts.flush();
    },
  };
}
