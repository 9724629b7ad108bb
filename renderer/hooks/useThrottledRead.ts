// A read that live events ask for again, never faster than it can answer: a campaign of 100,000
// rows takes about a second to read in the main process, so a reload waits at least four times the
// last read (and at least 300 ms), repeated asks while one waits make one read, not a queue, and an
// ask while a read is in flight reads once more after it (never two reads at once from asks). A
// read's answer is kept only if no read started after it has answered already: an older, slower
// answer never replaces a newer one (a job's counts never step back).
import { useCallback, useEffect, useRef, useState } from 'react';

export interface ThrottledRead<T> {
  data: T | null;
  error: unknown;
  /** Read again now (after the user's own action). */
  load: () => void;
  /** Read again soon (a live event): at most one read waits at a time. */
  soon: () => void;
}

export function useThrottledRead<T>(read: () => Promise<T>): ThrottledRead<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const lastMs = useRef(0);
  const live = useRef(true);
  // Reads started, and the latest whose answer was kept: an answer older than that is dropped.
  const started = useRef(0);
  const kept = useRef(0);
  const inFlight = useRef(0);
  // A live event asked while a read was in flight: read again after it.
  const askedMeanwhile = useRef(false);
  const soonRef = useRef<() => void>(() => undefined);
  const load = useCallback(() => {
    const mine = ++started.current;
    const t0 = performance.now();
    inFlight.current += 1;
    const keep = (): boolean => {
      if (!live.current || mine <= kept.current) return false;
      kept.current = mine;
      return true;
    };
    read()
      .then(
        (d) => {
          if (!keep()) return;
          setData(d);
          setError(null);
        },
        (e: unknown) => {
          if (keep()) setError(e);
        },
      )
      .finally(() => {
        lastMs.current = performance.now() - t0;
        inFlight.current -= 1;
        if (inFlight.current === 0 && askedMeanwhile.current) {
          askedMeanwhile.current = false;
          soonRef.current();
        }
      });
  }, [read]);
  useEffect(load, [load]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const soon = useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(
      () => {
        timer.current = null;
        if (inFlight.current > 0) askedMeanwhile.current = true;
        else load();
      },
      Math.max(300, 4 * lastMs.current),
    );
  }, [load]);
  useEffect(() => {
    soonRef.current = soon;
  });
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
  }, []);
  return { data, error, load, soon };
}
