// PDU expert mode: TP-DCS, TP-PID, the user data header (with a helper that builds the 16-bit
// port-addressing header from a destination and source port) and the user data as hex or text;
// below, the resulting SMS-SUBMIT explained field by field (explainSubmitPdu).
import { useId, useMemo, useState } from 'react';
import { SMART_PORTS, buildPortUdh, bytesToHex, describeDcs } from '../../../protocol/smart/index.ts';
import { useReportDraft } from './editor-kit.tsx';
import { oneOf, restoreForm } from './editor-state.ts';
import { pduDraft } from './rich-drafts.ts';
import type { PduForm } from './rich-drafts.ts';
import type { ContentEditorProps } from './types.ts';

const PORT_PRESETS: ReadonlyArray<readonly [string, number, number]> = [
  ['Nokia ringtone', SMART_PORTS.ringtone, 0],
  ['Nokia operator logo', SMART_PORTS.operatorLogo, 0],
  ['Nokia group graphic', SMART_PORTS.groupGraphic, 0],
  ['Nokia picture message', SMART_PORTS.pictureMessage, 0],
  ['vCard', SMART_PORTS.vcard, 0],
  ['vCalendar', SMART_PORTS.vcalendar, 0],
  ['WAP push', SMART_PORTS.wapPush, SMART_PORTS.wapSource],
];

function dcsMeaning(hex: string): string {
  if (!/^[0-9A-Fa-f]{2}$/.test(hex.trim())) return '';
  const d = describeDcs(parseInt(hex.trim(), 16));
  return `${d.alphabet}${d.messageClass !== undefined ? `, class ${d.messageClass}${d.messageClass === 0 ? ' (flash)' : ''}` : ''}${d.compressed ? ', compressed' : ''}`;
}

function portError(v: string): string | null {
  return /^\d{1,5}$/.test(v) && Number(v) <= 0xffff ? null : `“${v}” is not a port number from 0 to 65535.`;
}

export function PduEditor({ onChange, saved }: ContentEditorProps) {
  const [start] = useState(() =>
    restoreForm(
      {
        dcs: 'F5',
        pid: '00',
        udh: bytesToHex(buildPortUdh(SMART_PORTS.vcard, 0)),
        dataMode: 'hex' as PduForm['dataMode'],
        userData: '',
        text: '',
        dest: String(SMART_PORTS.vcard),
        src: '0',
      },
      saved,
      { dataMode: oneOf('hex', 'text') },
    ),
  );
  const { dest: startDest, src: startSrc, ...startForm } = start;
  const [form, setForm] = useState<PduForm>(startForm);
  const [dest, setDest] = useState(startDest);
  const [src, setSrc] = useState(startSrc);
  const [portProblem, setPortProblem] = useState<string | null>(null);
  const modeName = useId();
  const set = (changes: Partial<PduForm>) => setForm((f) => ({ ...f, ...changes }));
  const draft = useMemo(() => pduDraft(form), [form]);
  const state = useMemo(() => ({ ...form, dest, src }), [form, dest, src]);
  useReportDraft(draft, state, onChange);

  const buildUdh = () => {
    const problem = portError(dest) ?? portError(src);
    setPortProblem(problem);
    if (problem === null) set({ udh: bytesToHex(buildPortUdh(Number(dest), Number(src))) });
  };

  return (
    <div className="rich-editor" role="group" aria-label="SMS-SUBMIT PDU">
      <div className="row wrap">
        <label>
          Data coding scheme (TP-DCS, hex)
          <input type="text" value={form.dcs} maxLength={4} onChange={(e) => set({ dcs: e.target.value })} />
          <span className="muted small">{dcsMeaning(form.dcs)}</span>
        </label>
        <label>
          Protocol identifier (TP-PID, hex)
          <input type="text" value={form.pid} maxLength={4} onChange={(e) => set({ pid: e.target.value })} />
        </label>
      </div>
      <label>
        User data header (hex)
        <input type="text" value={form.udh} onChange={(e) => set({ udh: e.target.value })} />
      </label>
      <fieldset>
        <legend>Port addressing helper</legend>
        <label>
          Preset
          <select
            value=""
            onChange={(e) => {
              const p = PORT_PRESETS.find(([name]) => name === e.target.value);
              if (p) {
                setDest(String(p[1]));
                setSrc(String(p[2]));
              }
            }}
          >
            <option value="">Choose…</option>
            {PORT_PRESETS.map(([name, d]) => (
              <option key={name} value={name}>
                {name} ({d})
              </option>
            ))}
          </select>
        </label>
        <label>
          Destination port
          <input type="number" min={0} max={65535} value={dest} onChange={(e) => setDest(e.target.value)} />
        </label>
        <label>
          Source port
          <input type="number" min={0} max={65535} value={src} onChange={(e) => setSrc(e.target.value)} />
        </label>
        <button type="button" onClick={buildUdh}>
          Build header
        </button>
        {portProblem ? (
          <p role="alert" className="error small">
            {portProblem}
          </p>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>User data</legend>
        <label className="check">
          <input
            type="radio"
            name={modeName}
            checked={form.dataMode === 'hex'}
            onChange={() => set({ dataMode: 'hex' })}
          />{' '}
          Hex
        </label>
        <label className="check">
          <input
            type="radio"
            name={modeName}
            checked={form.dataMode === 'text'}
            onChange={() => set({ dataMode: 'text' })}
          />{' '}
          Text
        </label>
      </fieldset>
      {form.dataMode === 'hex' ? (
        <label>
          User data (hex)
          <textarea rows={3} value={form.userData} onChange={(e) => set({ userData: e.target.value })} />
          <span className="muted small">Octets; for a GSM-7 coding scheme, packed septets.</span>
        </label>
      ) : (
        <label>
          User data text
          <textarea rows={3} value={form.text} onChange={(e) => set({ text: e.target.value })} />
          <span className="muted small">
            Encoded as the coding scheme says (GSM-7, UCS-2 or UTF-8 octets).
          </span>
        </label>
      )}
      {draft.pduHex ? (
        <div>
          <div className="muted small">{draft.summary} — addressed here to a sample number</div>
          <code className="hex" aria-label="PDU hex">
            {draft.pduHex}
          </code>
          <table className="table pdu-explain" aria-label="PDU explained">
            <thead>
              <tr>
                <th>Field</th>
                <th>Octets</th>
                <th>Meaning</th>
              </tr>
            </thead>
            <tbody>
              {draft.explanation.map((f) => (
                <tr key={`${f.field}-${f.offset}`}>
                  <td>{f.field}</td>
                  <td>{f.hex.length > 24 ? `${f.hex.slice(0, 24)}…` : f.hex}</td>
                  <td>{f.meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
