// Office mode (issue 28): the desk's pool of connections to the office database for its writes and
// reads (the listener has a connection of its own, office.ts). Split from office.ts by
// responsibility: how a pool client's errors are kept so that none ends the process.
import pg from 'pg';
import type { ClientConfig, Pool, PoolClient } from 'pg';
import { why } from './step-holds.ts';

/** The longest a query of the pool may wait for the server's answer. */
const QUERY_TIMEOUT_MS = 10_000;

export class OfficePool {
  readonly #config: ClientConfig;
  readonly #log: (m: string) => void;
  #pool: Pool | null = null;
  /** The last error each pool client emitted (see #get). */
  readonly #clientErrors = new WeakMap<PoolClient, Error>();

  constructor(config: ClientConfig, log: (m: string) => void) {
    this.#config = config;
    this.#log = log;
  }

  #get(): Pool {
    if (this.#pool === null) {
      // query_timeout: a server that stops answering (the network lost, not closed) fails a query
      // instead of holding it for as long as TCP keeps the dead connection
      const pool = new pg.Pool({
        ...this.#config,
        max: 3,
        idleTimeoutMillis: 10_000,
        query_timeout: QUERY_TIMEOUT_MS,
      });
      // an idle client's error (the server restarted) must not end the process
      pool.on('error', (err) => this.#log(`office database pool: ${why(err)}`));
      // pg-pool hands a new client out with no error listener until withClient's continuation runs:
      // a server shutting down just then sends its FATAL 57P01 in the same packet as the end of the
      // connection's start-up, which would be an uncaught exception of the process. Every client
      // keeps one listener of its own; withClient reads what it caught.
      pool.on('connect', (client) => {
        client.on('error', (err) => this.#clientErrors.set(client, err));
      });
      this.#pool = pool;
    }
    return this.#pool;
  }

  async withClient<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.#get().connect();
    // A checked-out client's error between two queries (the server shutting down) is emitted on the
    // client, not the pool: kept here, and the client thrown away on release.
    let failed: Error | undefined = this.#clientErrors.get(c);
    const onError = (err: Error): void => {
      failed = err;
    };
    c.on('error', onError);
    try {
      return await fn(c);
    } catch (err) {
      failed ??= err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      c.off('error', onError);
      c.release(failed);
    }
  }

  /** The connections may be dead (the listener's was): dropped, new ones made when next asked. */
  drop(): void {
    const p = this.#pool;
    this.#pool = null;
    void p?.end().catch(() => undefined);
  }

  async end(): Promise<void> {
    const p = this.#pool;
    this.#pool = null;
    await p?.end().catch(() => undefined);
  }
}
