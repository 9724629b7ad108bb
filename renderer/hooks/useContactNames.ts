// Contact names by number (normalised, as the journal and the sandbox keep them), for the status
// tables and the virtual phone (issue 12: names beside numbers). Read once per view; empty until
// the contacts arrive, and when they cannot be read.
import { useEffect, useState } from 'react';
import { api } from '../api.ts';

export function useContactNames(): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    api()
      .contacts.list()
      .then(
        (list) => {
          if (live) setNames(new Map(list.map((c) => [c.number, c.name] as const)));
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, []);
  return names;
}
