// Export of the inbox beyond one conversation: every message, or those of a date range, as CSV
// (spreadsheet-safe cells, made by the store). A search result is exported from the search panel.
import { useState } from 'react';
import { api } from '../api.ts';
import { Dialog } from '../components/Dialog.tsx';
import { ErrorText } from '../components/ErrorText.tsx';
import { useAction } from '../hooks/useAction.ts';
import { download } from '../format.ts';

/** A yyyy-mm-dd of a date input as the local midnight that starts it (ms), or undefined. */
function dayStart(value: string, plusDays = 0): number | undefined {
  if (!value) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + plusDays).getTime();
}

export function ExportDialog({ onClose }: { onClose: () => void }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const exporting = useAction(async () => {
    const start = dayStart(from);
    const end = dayStart(to, 1);
    if (start !== undefined && end !== undefined && end <= start) {
      throw new Error('The last day is before the first day.');
    }
    const csv = await api().inbox.exportMessages({
      ...(start !== undefined ? { from: start } : {}),
      ...(end !== undefined ? { to: end } : {}),
    });
    const name = from || to ? `messages-${from || 'start'}-to-${to || 'now'}.csv` : 'messages-all.csv';
    download(name, csv);
    onClose();
  });
  return (
    <Dialog title="Export messages" onCancel={onClose} onSubmit={() => void exporting.run()}>
      <p className="muted small">Every conversation, oldest first. Leave the dates empty for everything.</p>
      <div className="row wrap">
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To (inclusive)
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
      </div>
      <ErrorText error={exporting.error} />
      <div className="row dialog-buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={exporting.busy}>
          Export CSV
        </button>
      </div>
    </Dialog>
  );
}
