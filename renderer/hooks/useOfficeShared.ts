// Issue 28: whether this desk is in office mode (its contacts, groups, templates and the signed-in
// gateway account's auto-reply rules then shared by every desk of the office): null until known.
// Office mode is decided at start (a change applies at the next start), so the answer is asked once
// per window and every later view has it at its first paint.
import { useEffect, useState } from 'react';
import { api } from '../api.ts';

let known: boolean | null = null;
let asking: Promise<boolean> | null = null;

function ask(): Promise<boolean> {
  asking ??= api()
    .office.status()
    .then(
      (s) => (known = s !== null),
      () => {
        asking = null; // asked again by the next view
        return false;
      },
    );
  return asking;
}

export function useOfficeShared(): boolean | null {
  const [office, setOffice] = useState<boolean | null>(known);
  useEffect(() => {
    if (known !== null) return;
    let live = true;
    void ask().then((v) => live && setOffice(v));
    return () => {
      live = false;
    };
  }, []);
  return office;
}
