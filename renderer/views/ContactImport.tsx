// Contacts' import buttons: a CSV file (its columns mapped to name, number, email, notes and groups,
// with a guess from the header names) or a vCard file; the service normalises and de-duplicates the
// rows. Rows whose number is already a contact are skipped and offered for merging: `onDone` gets a
// `merge` that imports the same file again, updating those contacts.
import { useState } from 'react';
import Papa from 'papaparse';
import type { CsvColumnMapping, ImportResult } from '../../domain/index.ts';
import { api } from '../api.ts';
import { Dialog } from '../components/Dialog.tsx';

const readFile = (f: File) => f.text();

export function ImportButtons({
  country,
  onDone,
  onError,
}: {
  country: string | undefined;
  onDone: (r: ImportResult, merge: () => Promise<ImportResult>) => void;
  onError: (e: unknown) => void;
}) {
  const [csv, setCsv] = useState<{ text: string; headers: string[] } | null>(null);
  const [mapping, setMapping] = useState<{
    name: string;
    last: string;
    number: string;
    email: string;
    notes: string;
    groups: string;
  }>({
    name: '',
    last: '',
    number: '',
    email: '',
    notes: '',
    groups: '',
  });
  const options = country ? { defaultCountry: country } : {};

  const onCsv = async (f: File | undefined) => {
    if (!f) return;
    const text = await readFile(f);
    const parsed = Papa.parse<string[]>(text, { preview: 1, skipEmptyLines: true });
    const headers = (parsed.data[0] ?? []).map((h) => h.trim());
    const guess = (re: RegExp) => headers.find((h) => re.test(h)) ?? '';
    setMapping({
      name: guess(/^(full ?)?name$|^first/i),
      last: guess(/^last|surname/i),
      number: guess(/phone|mobile|number|msisdn|tel/i),
      email: guess(/mail/i),
      notes: guess(/note/i),
      groups: guess(/^groups?$|^lists?$|^tags?$/i),
    });
    setCsv({ text, headers });
  };
  const runCsv = () => {
    if (!csv || !mapping.number) return;
    const m: CsvColumnMapping = {
      number: mapping.number,
      ...(mapping.name ? { name: mapping.last ? [mapping.name, mapping.last] : mapping.name } : {}),
      ...(mapping.email ? { email: mapping.email } : {}),
      ...(mapping.notes ? { notes: mapping.notes } : {}),
      ...(mapping.groups ? { groups: mapping.groups } : {}),
    };
    const text = csv.text;
    api()
      .contacts.importCsv({ csv: text, mapping: m, options })
      .then((r) => {
        setCsv(null);
        onDone(r, () =>
          api().contacts.importCsv({ csv: text, mapping: m, options: { ...options, onDuplicate: 'update' } }),
        );
      }, onError);
  };

  return (
    <>
      <label className="button">
        Import CSV…
        <input
          type="file"
          accept=".csv,text/csv"
          className="hidden-file"
          onChange={(e) => void onCsv(e.target.files?.[0]).catch(onError)}
        />
      </label>
      <label className="button">
        Import vCard…
        <input
          type="file"
          accept=".vcf,text/vcard,text/x-vcard"
          className="hidden-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f)
              void readFile(f)
                .then(async (text) => {
                  const r = await api().contacts.importVcard({ text, options });
                  onDone(r, () =>
                    api().contacts.importVcard({ text, options: { ...options, onDuplicate: 'update' } }),
                  );
                })
                .catch(onError);
          }}
        />
      </label>
      {csv ? (
        <Dialog title="Map CSV columns" label="CSV column mapping" onCancel={() => setCsv(null)}>
          {(['name', 'last', 'number', 'email', 'notes', 'groups'] as const).map((k) => (
            <label key={k}>
              {k === 'name'
                ? 'Name (or first name)'
                : k === 'last'
                  ? 'Last name (joined to the name)'
                  : k === 'number'
                    ? 'Number (required)'
                    : k === 'groups'
                      ? 'Groups (names separated by ; or |)'
                      : k[0]?.toUpperCase() + k.slice(1)}
              <select value={mapping[k]} onChange={(e) => setMapping((m) => ({ ...m, [k]: e.target.value }))}>
                <option value="">—</option>
                {csv.headers.map((h) => (
                  <option key={h} value={h}>
                    {h}
                  </option>
                ))}
              </select>
            </label>
          ))}
          <div className="row dialog-buttons">
            <button type="button" className="primary" onClick={runCsv} disabled={!mapping.number}>
              Import
            </button>
            <button type="button" onClick={() => setCsv(null)}>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
