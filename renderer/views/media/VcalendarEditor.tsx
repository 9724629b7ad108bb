// vCalendar editor: one event (title, start, end, location, reminder) in the user's local time,
// sent as vCalendar 1.0 with UTC times (what phones take over SMS, port 9205).
import { useMemo, useState } from 'react';
import { useReportDraft } from './editor-kit.tsx';
import { restoreForm } from './editor-state.ts';
import { localToUtcIso, MAX_REMINDER_MINUTES, vcalendarDraft } from './rich-drafts.ts';
import type { VcalendarForm } from './rich-drafts.ts';
import type { ContentEditorProps } from './types.ts';

/** A Date as a datetime-local value (local time, minutes). */
function toLocalInput(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function initialForm(): VcalendarForm {
  const start = new Date();
  start.setHours(start.getHours() + 1, 0, 0, 0);
  const end = new Date(start.getTime() + 60 * 60_000);
  return {
    title: '',
    start: toLocalInput(start),
    end: toLocalInput(end),
    location: '',
    reminderMinutes: '15',
  };
}

function Utc({ local }: { local: string }) {
  const utc = localToUtcIso(local);
  return utc ? <span className="muted small">UTC {utc.slice(0, 16).replace('T', ' ')}</span> : null;
}

export function VcalendarEditor({ onChange, saved }: ContentEditorProps) {
  const [form, setForm] = useState<VcalendarForm>(() => restoreForm(initialForm(), saved));
  const set = (changes: Partial<VcalendarForm>) => setForm((f) => ({ ...f, ...changes }));
  const draft = useMemo(() => vcalendarDraft(form), [form]);
  const state = useMemo(() => ({ ...form }), [form]);
  useReportDraft(draft, state, onChange);

  return (
    <div className="rich-editor" role="group" aria-label="vCalendar event">
      <label>
        Title
        <input type="text" value={form.title} onChange={(e) => set({ title: e.target.value })} />
      </label>
      <div className="row wrap">
        <label>
          Starts (local time)
          <input type="datetime-local" value={form.start} onChange={(e) => set({ start: e.target.value })} />
          <Utc local={form.start} />
        </label>
        <label>
          Ends (local time)
          <input type="datetime-local" value={form.end} onChange={(e) => set({ end: e.target.value })} />
          <Utc local={form.end} />
        </label>
      </div>
      <div className="row wrap">
        <label>
          Location
          <input type="text" value={form.location} onChange={(e) => set({ location: e.target.value })} />
        </label>
        <label>
          Reminder (minutes before)
          <input
            type="number"
            min={0}
            max={MAX_REMINDER_MINUTES}
            value={form.reminderMinutes}
            placeholder="none"
            onChange={(e) => set({ reminderMinutes: e.target.value })}
          />
        </label>
      </div>
      {draft.preview ? (
        <div>
          <pre className="raw" aria-label="vCalendar preview">
            {draft.preview}
          </pre>
        </div>
      ) : null}
    </div>
  );
}
