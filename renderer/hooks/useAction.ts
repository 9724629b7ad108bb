// Busy and error state of one async action (a save, a delete, a transfer): the state every view
// used to write by hand as a useState pair and a .then/.finally chain.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Action<A extends unknown[], R> {
  /** Runs the action unless it is already running; resolves with its result, or undefined when it failed or was skipped. */
  run: (...args: A) => Promise<R | undefined>;
  busy: boolean;
  /** What the last run threw (null after a success or clearError()). */
  error: unknown;
  /** Shows an error of the view's own (a form check) in the same place. */
  setError: (error: unknown) => void;
  clearError: () => void;
}

export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>): Action<A, R> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // A ref, not the state: two clicks in one frame both see busy === false in their closures.
  const running = useRef(false);
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });
  const run = useCallback(async (...args: A): Promise<R | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      return await latest.current(...args);
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  const clearError = useCallback(() => setError(null), []);
  return { run, busy, error, setError, clearError };
}
