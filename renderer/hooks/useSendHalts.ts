// Issue 25: sends whose loop stopped because the journal took no write (a full disk): read once,
// then followed through 'outbox:halted'. A job's halt reason, or null.
import { useCallback, useEffect, useState } from 'react';
import type { SendHalt } from '../../preload/api.ts';
import { api, useEvent } from '../api.ts';

export function useSendHalts(): (jobId: number | null | undefined) => string | null {
  const [halts, setHalts] = useState<ReadonlyMap<number, SendHalt>>(new Map());
  useEffect(() => {
    let live = true;
    api()
      .outbox.halts()
      .then(
        (list) => live && setHalts((m) => new Map([...list.map((h) => [h.jobId, h] as const), ...m])),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  useEvent('outbox:halted', (h) => setHalts((m) => new Map(m).set(h.jobId, h)));
  return useCallback(
    (jobId: number | null | undefined) =>
      jobId === null || jobId === undefined ? null : (halts.get(jobId)?.reason ?? null),
    [halts],
  );
}
