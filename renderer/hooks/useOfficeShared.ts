// Issue 28: whether this desk is in office mode (its contacts, groups, templates and the signed-in
// gateway account's auto-reply rules then shared by every desk of the office): null until known.
import { useEffect, useState } from 'react';
import { api } from '../api.ts';

export function useOfficeShared(): boolean | null {
  const [office, setOffice] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    api()
      .office.status()
      .then(
        (s) => live && setOffice(s !== null),
        () => live && setOffice(false),
      );
    return () => {
      live = false;
    };
  }, []);
  return office;
}
