// The renderer's one way to keep a view up with the main process's events (issue 27): a read, read
// again (throttled: useThrottledRead) when an event it names says it is about what the view shows.
// Views read; they do not merge event payloads into their own copies.
import { useEffect, useRef } from 'react';
import { onEvent } from '../api.ts';
import type { RendererEventChannel, RendererEvents } from '../bridge/types.ts';
import { useThrottledRead } from './useThrottledRead.ts';
import type { ThrottledRead } from './useThrottledRead.ts';

/** Per event, whether it concerns the view's read (true: read again soon), given what was read last. */
export type LiveTriggers<T> = {
  [E in RendererEventChannel]?: (payload: RendererEvents[E], last: T | null) => boolean;
};

export function useLiveRead<T>(read: () => Promise<T>, triggers: LiveTriggers<T>): ThrottledRead<T> {
  const result = useThrottledRead(read);
  const latest = useRef({ triggers, data: result.data });
  useEffect(() => {
    latest.current = { triggers, data: result.data };
  });
  const { soon } = result;
  const channels = (Object.keys(triggers) as RendererEventChannel[]).sort().join(' ');
  useEffect(() => {
    const offs = (channels === '' ? [] : (channels.split(' ') as RendererEventChannel[])).map((channel) =>
      onEvent(channel, (payload) => {
        const concerns = latest.current.triggers[channel] as
          ((p: typeof payload, last: T | null) => boolean) | undefined;
        if (concerns?.(payload, latest.current.data) === true) soon();
      }),
    );
    return () => {
      for (const off of offs) off();
    };
  }, [channels, soon]);
  return result;
}
