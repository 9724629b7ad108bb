// The bundled table of mobile networks (assets/networks.json): MCC/MNC by country and operator,
// searched by either name for the operator logo editor.
import table from '../../../assets/networks.json' with { type: 'json' };

export interface Network {
  country: string;
  iso: string;
  /** Mobile Country Code, 3 digits. */
  mcc: string;
  /** Mobile Network Code as assigned: 2 digits (most of the world) or 3 (North America, parts of India…). */
  mnc: string;
  name: string;
}

interface TableFile {
  countries: Array<{
    country: string;
    iso: string;
    mcc: string;
    networks: Array<{ mnc: string; name: string }>;
  }>;
}

export const NETWORKS: readonly Network[] = (table as TableFile).countries.flatMap((c) =>
  c.networks.map((n) => ({ country: c.country, iso: c.iso, mcc: c.mcc, mnc: n.mnc, name: n.name })),
);

const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Networks whose operator name, country, ISO code or "MCC MNC" matches every word of the query
 * (accents and case ignored); operator-name matches first.
 */
export function searchNetworks(query: string, networks: readonly Network[] = NETWORKS): Network[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...networks];
  const hits = networks.filter((n) => {
    const hay = fold(`${n.name} ${n.country} ${n.iso} ${n.mcc} ${n.mnc} ${n.mcc}-${n.mnc} ${n.mcc}/${n.mnc}`);
    return words.every((w) => hay.includes(w));
  });
  const byName = (n: Network) => (words.every((w) => fold(n.name).includes(w)) ? 0 : 1);
  return hits.sort((a, b) => byName(a) - byName(b));
}

/** The network with this MCC and MNC (numerically compared), if the table has it. */
export function findNetwork(
  mcc: string,
  mnc: string,
  networks: readonly Network[] = NETWORKS,
): Network | undefined {
  if (!/^\d+$/.test(mcc) || !/^\d+$/.test(mnc)) return undefined;
  return networks.find((n) => Number(n.mcc) === Number(mcc) && Number(n.mnc) === Number(mnc));
}
