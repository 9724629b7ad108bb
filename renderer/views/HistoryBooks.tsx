// issue 16: a send's server address books and Cc/Bcc in History. They were sent as what they are
// (SendToAddressBook, SendCc…), never as numbers, so they have no recipient rows: each batch that
// carried them shows its book or Cc/Bcc, the reach counted when it was sent and what the gateway
// answered for that request.
import { useEffect, useState } from 'react';
import type { OutboxBatch, OutboxJob } from '../../domain/index.ts';
import { api } from '../api.ts';
import { plural } from '../format.ts';
import { StatusPill } from '../components/StatusPill.tsx';

/** The job's batches that carry a book or Cc/Bcc (read again whenever a new snapshot of the job comes). */
export function useJobBooks(job: OutboxJob | null): OutboxBatch[] {
  const [batches, setBatches] = useState<OutboxBatch[]>([]);
  const has = job !== null && job.extraReach !== undefined;
  const id = job?.id ?? 0;
  const counts = job?.counts;
  useEffect(() => {
    if (!has) return;
    api()
      .outbox.batches(id)
      .then(
        (bs) => setBatches(bs.filter((b) => b.extras)),
        () => setBatches([]),
      );
  }, [id, counts, has]);
  return has ? batches : [];
}

/** The address books a send named in its To (for "Edit and send again": they stay books). */
export function toBooksOf(batches: readonly OutboxBatch[]): string[] {
  return batches.flatMap((b) =>
    b.extras?.fields.SendToAddressBook ? [b.extras.fields.SendToAddressBook] : [],
  );
}

function labelOf(fields: Record<string, string>): string {
  const parts: string[] = [];
  if (fields.SendToAddressBook) parts.push(`Server book ${fields.SendToAddressBook}`);
  if (fields.SendCc)
    parts.push(
      `Cc ${fields.SendCc.split(',')
        .map((n) => `+${n}`)
        .join(', ')}`,
    );
  if (fields.SendBcc)
    parts.push(
      `Bcc ${fields.SendBcc.split(',')
        .map((n) => `+${n}`)
        .join(', ')}`,
    );
  if (fields.SendCcAddressBook) parts.push(`Cc book ${fields.SendCcAddressBook}`);
  if (fields.SendBccAddressBook) parts.push(`Bcc book ${fields.SendBccAddressBook}`);
  return parts.join(' · ');
}

export function JobBooks({ batches }: { batches: readonly OutboxBatch[] }) {
  if (batches.length === 0) return null;
  return (
    <ul className="plain job-books" aria-label="Server books and Cc/Bcc">
      {batches.map((b) => {
        const x = b.extras!;
        return (
          <li key={b.id} className="row job-book">
            <strong>{labelOf(x.fields)}</strong>
            <span className="muted small">
              {x.reach === null ? 'reach not known' : `reaches ${plural(x.reach, 'recipient')}`}
              {x.answered === null
                ? ''
                : ` · the gateway answered for ${x.answered}: ${x.accepted ?? 0} accepted${
                    x.rejected ? `, ${x.rejected} refused` : ''
                  }`}
              {b.reason ? ` · ${b.reason}` : ''}
            </span>
            <StatusPill status={b.state} />
          </li>
        );
      })}
    </ul>
  );
}
