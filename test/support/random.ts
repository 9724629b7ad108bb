// Deterministic pseudo-random numbers for tests and benches that explore cases by seed: the same
// seed gives the same sequence on every run and machine.

/** Numbers in [0, 1) from `seed` (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
