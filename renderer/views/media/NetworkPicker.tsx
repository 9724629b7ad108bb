// Choosing the network of an operator logo: search the bundled table (assets/networks.json) by
// operator or country name, or type MCC and MNC.
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { findNetwork, searchNetworks, type Network } from './networks.ts';

export interface NetworkPickerProps {
  mcc: string;
  mnc: string;
  onChange(next: { mcc: string; mnc: string }): void;
}

const MAX_SHOWN = 8;

export function NetworkPicker({ mcc, mnc, onChange }: NetworkPickerProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const id = useId();
  const results = useMemo(() => (query.trim() ? searchNetworks(query).slice(0, MAX_SHOWN) : []), [query]);
  const chosen = findNetwork(mcc, mnc);

  const choose = (n: Network) => {
    onChange({ mcc: n.mcc, mnc: n.mnc });
    setQuery('');
    setActive(0);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!results.length) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => (a + 1) % results.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (a - 1 + results.length) % results.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const n = results[active];
      if (n) choose(n);
    } else if (e.key === 'Escape') setQuery('');
  };

  return (
    <div className="network-picker">
      <div className="row wrap align-end">
        <label className="grow">
          Network
          <input
            type="search"
            role="combobox"
            aria-expanded={results.length > 0}
            aria-controls={`${id}-results`}
            aria-activedescendant={results.length ? `${id}-r${active}` : undefined}
            aria-autocomplete="list"
            placeholder="Search by operator or country, e.g. Vodafone Germany"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKey}
          />
        </label>
        <label className="narrow">
          MCC
          <input
            inputMode="numeric"
            maxLength={3}
            value={mcc}
            aria-invalid={mcc !== '' && !/^\d{3}$/.test(mcc)}
            onChange={(e) => onChange({ mcc: e.target.value.trim(), mnc })}
          />
        </label>
        <label className="narrow">
          MNC
          <input
            inputMode="numeric"
            maxLength={3}
            value={mnc}
            aria-invalid={mnc !== '' && !/^\d{2,3}$/.test(mnc)}
            onChange={(e) => onChange({ mcc, mnc: e.target.value.trim() })}
          />
        </label>
      </div>
      {results.length ? (
        <ul className="network-results" role="listbox" id={`${id}-results`} aria-label="Networks found">
          {results.map((n, i) => (
            <li
              key={`${n.mcc}-${n.mnc}`}
              id={`${id}-r${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(n);
              }}
            >
              <strong>{n.name}</strong> <span className="muted">{n.country}</span>{' '}
              <span className="mono small">
                {n.mcc} {n.mnc}
              </span>
            </li>
          ))}
        </ul>
      ) : query.trim() ? (
        <p className="muted small">No network matches “{query.trim()}”; type MCC and MNC instead.</p>
      ) : null}
      <p className="small muted" data-testid="network-chosen">
        {chosen
          ? `${chosen.name}, ${chosen.country} (${chosen.mcc} ${chosen.mnc})`
          : mcc || mnc
            ? 'Not in the bundled table; the codes are sent as typed.'
            : 'No network chosen.'}
      </p>
    </div>
  );
}
