// Office mode (issue 28, docs/OFFICE.md "The office database away"): a step of a desk's sync (a
// queue written, a feed imported) that the office database refuses while it is reachable — a
// constraint or permission error, a table missing — is not a lost connection: reconnecting would
// not mend it, and retrying at once (the sends queue is looked at every 300 ms) would only repeat
// it and fill the log. Such a step is held back, each failure longer (HOLD_FIRST_MS doubled up to
// HOLD_MAX_MS), while the other steps go on (a refused write does not stop the imports); what it
// would have written stays queued. Each distinct error is logged once, and the status says it
// (the banner shows it) until the step succeeds again.

export const why = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Not an answer of the server (SQLSTATE, five characters) but a connection that failed or went silent. */
export const lostConnection = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
};

const HOLD_FIRST_MS = 500;
export const HOLD_MAX_MS = 30_000;

interface Hold {
  until: number;
  ms: number;
  error: string;
  /** When it last failed. */
  at: number;
}

export type SyncStep = 'connection' | 'replies' | 'sends' | 'library' | 'imports' | 'autoReplies';

/** What a refused step leaves undone, as the banner and the log say it. */
const UNDONE: Record<SyncStep, string> = {
  connection: 'nothing written or read',
  replies: 'replies collected here not written',
  sends: "this desk's sends not written",
  library: 'contacts, groups, templates or rules not written',
  imports: "other desks' changes not read",
  autoReplies: "auto-replies answered while it was away not written to the office's log",
};

export class StepHolds {
  readonly #holds = new Map<SyncStep, Hold>();
  readonly #logged = new Map<SyncStep, string>();
  readonly #log: (m: string) => void;
  #timer: NodeJS.Timeout | null = null;
  readonly #retry: () => void;

  /** `retry`: run the sync again (a held step's time has come). */
  constructor(log: (m: string) => void, retry: () => void) {
    this.#log = log;
    this.#retry = retry;
  }

  /** Whether `step` waits for its next try. */
  held(step: SyncStep, now = Date.now()): boolean {
    const h = this.#holds.get(step);
    return h !== undefined && now < h.until;
  }

  /** `step` was refused with `error`: held back longer than last time; logged if new. */
  failed(step: SyncStep, error: string): void {
    const before = this.#holds.get(step);
    const ms = before === undefined ? HOLD_FIRST_MS : Math.min(before.ms * 2, HOLD_MAX_MS);
    const now = Date.now();
    this.#holds.set(step, { until: now + ms, ms, error, at: now });
    if (this.#logged.get(step) !== error) {
      this.#logged.set(step, error);
      this.#log(
        `office: ${UNDONE[step]}: the office database refused them (${error}); kept and tried again, less and less often (up to every ${HOLD_MAX_MS / 1000} s)`,
      );
    }
    this.#schedule();
  }

  /** `step` went through: no longer held (said once, if it had failed). */
  succeeded(step: SyncStep): void {
    if (!this.#holds.delete(step)) return;
    this.#logged.delete(step);
    this.#log(`office: the office database takes them again (${UNDONE[step]} before)`);
  }

  /** The latest refusal still standing (the status's error while connected), or null. */
  error(): string | null {
    let latest: [SyncStep, Hold] | null = null;
    for (const e of this.#holds) if (latest === null || e[1].at >= latest[1].at) latest = e;
    return latest === null ? null : `${UNDONE[latest[0]]}: ${latest[1].error}`;
  }

  /** Connected again: every step tried at once (a refusal still standing is not logged again). */
  reset(): void {
    this.#holds.clear();
    this.stop();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(): void {
    this.stop();
    let next = Infinity;
    for (const h of this.#holds.values()) next = Math.min(next, h.until);
    if (next === Infinity) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#retry();
      },
      Math.max(0, next - Date.now()) + 5,
    );
    this.#timer.unref();
  }
}
