// Issue 25: sends whose loop stopped because the journal took no write (a full disk), kept up the
// renderer's one way (useLiveRead): read, and read again when 'outbox:halted' says one stopped.
// A job's halt reason, or null.
import { useCallback } from 'react';
import { api } from '../api.ts';
import { useLiveRead } from './useLiveRead.ts';

const readHalts = () => api().outbox.halts();

export function useSendHalts(): (jobId: number | null | undefined) => string | null {
  const { data } = useLiveRead(readHalts, { 'outbox:halted': () => true });
  return useCallback(
    (jobId: number | null | undefined) =>
      jobId === null || jobId === undefined ? null : (data?.find((h) => h.jobId === jobId)?.reason ?? null),
    [data],
  );
}
