/** Compare dotted versions ("1.2.10" > "1.2.9"); missing parts count as 0, a non-numeric part compares as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.trim().replace(/^v/i, '').split(/[.+-]/);
  const pb = b.trim().replace(/^v/i, '').split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const d = Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y) : nx - ny;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
