// A read that live events ask for again, never faster than it can answer: a campaign of 100,000
// rows takes about a second to read in the main process, so a reload waits at least four times the
// last read (and at least 300 ms) and repeated asks while one waits make one read, not a queue.
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
  const load = useCallback(() => {
    const started = performance.now();
    read()
      .then(
        (d) => {
          if (live.current) setData(d);
        },
        (e: unknown) => {
          if (live.current) setError(e);
        },
      )
      .finally(() => {
        lastMs.current = performance.now() - started;
      });
  }, [read]);
  useEffect(load, [load]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const soon = useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(
      () => {
        timer.current = null;
        load();
      },
      Math.max(300, 4 * lastMs.current),
    );
  }, [load]);
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
