// Version numbers of MobileMessengerVersion (spec 9.3 leaves the numbering policy open): compared
// as dotted numbers ("1.10" > "1.9", "1.2" = "1.2.0"), with a semver-like pre-release after '-'
// ("2.0.0-beta.1" < "2.0.0") and build metadata after '+' ignored. A leading "v" is accepted.

export type UpdateChannel = 'stable' | 'beta';
export const UPDATE_CHANNELS: readonly UpdateChannel[] = ['stable', 'beta'];

interface ParsedVersion {
  core: string[];
  pre: string[];
}

function parse(v: string): ParsedVersion {
  const text = v.trim().replace(/^v/i, '');
  const noBuild = text.split('+', 1)[0] ?? '';
  const dash = noBuild.indexOf('-');
  const core = (dash < 0 ? noBuild : noBuild.slice(0, dash)).split('.');
  const pre = dash < 0 ? [] : noBuild.slice(dash + 1).split('.');
  return { core, pre };
}

const isNum = (s: string): boolean => /^\d+$/.test(s);

/** One part: numbers numerically, a number below text (semver), text by code unit. */
function comparePart(x: string, y: string): number {
  if (isNum(x) && isNum(y)) {
    const d = BigInt(x) - BigInt(y);
    return d === 0n ? 0 : d < 0n ? -1 : 1;
  }
  if (isNum(x)) return -1;
  if (isNum(y)) return 1;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Whether the version has a pre-release part ("2.0.0-beta.1", "1.3-rc1"). */
export function isPrerelease(v: string): boolean {
  return parse(v).pre.some((p) => p !== '');
}

/** -1, 0 or 1: `a` older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.core.length, pb.core.length); i++) {
    const d = comparePart(pa.core[i] || '0', pb.core[i] || '0');
    if (d !== 0) return d;
  }
  // Same core: a release is newer than any of its pre-releases.
  const preA = pa.pre.filter((p) => p !== '');
  const preB = pb.pre.filter((p) => p !== '');
  if (preA.length === 0 || preB.length === 0)
    return preA.length === preB.length ? 0 : preA.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.max(preA.length, preB.length); i++) {
    const x = preA[i];
    const y = preB[i];
    if (x === undefined) return -1; // fewer identifiers: older ("beta" < "beta.1")
    if (y === undefined) return 1;
    const d = comparePart(x, y);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Whether `offered` should be offered to a user of `current` on `channel`: newer, and on the
 * stable channel not a pre-release (the SOAP operation takes no channel; the app decides).
 */
export function isOfferedUpdate(offered: string, current: string, channel: UpdateChannel): boolean {
  if (offered.trim() === '') return false;
  if (channel === 'stable' && isPrerelease(offered)) return false;
  return compareVersions(offered, current) > 0;
}
