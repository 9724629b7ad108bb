import { describe, expect, it } from 'vitest';
import { compareVersions, isOfferedUpdate, isPrerelease } from '../../../main/services/versions.ts';

describe('compareVersions (dotted numbers)', () => {
  it('compares each part as a number, not as text', () => {
    expect(compareVersions('1.10', '1.9')).toBe(1);
    expect(compareVersions('1.9', '1.10')).toBe(-1);
    expect(compareVersions('1.2.10', '1.2.9')).toBe(1);
    expect(compareVersions('10.0', 'v2.0')).toBe(1);
    expect(compareVersions('0.2.0', '0.1.9')).toBe(1);
    expect(compareVersions('2', '1.99.99')).toBe(1);
  });

  it('treats missing parts as 0', () => {
    expect(compareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareVersions('1.2.0.0', '1.2')).toBe(0);
    expect(compareVersions('1.2.1', '1.2')).toBe(1);
  });

  it('orders pre-releases before their release and among themselves', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1-beta.1',
      '1.0.1',
    ];
    for (let i = 0; i < ordered.length - 1; i++) {
      expect(compareVersions(ordered[i]!, ordered[i + 1]!), `${ordered[i]} < ${ordered[i + 1]}`).toBe(-1);
      expect(compareVersions(ordered[i + 1]!, ordered[i]!)).toBe(1);
    }
    expect(compareVersions('2.0.0-beta.1', '1.9.9')).toBe(1);
    expect(compareVersions('2.0-beta.1', '2.0.0-beta.1')).toBe(0);
  });

  it('ignores build metadata and a leading v', () => {
    expect(compareVersions('1.2.3+build.7', '1.2.3')).toBe(0);
    expect(compareVersions('V1.2.3', '1.2.3')).toBe(0);
  });

  it('compares very long numbers without losing precision', () => {
    expect(compareVersions('1.9007199254740993', '1.9007199254740992')).toBe(1);
  });
});

describe('update offer by channel', () => {
  it('stable ignores pre-releases, beta offers them', () => {
    expect(isPrerelease('2.0.0-beta.1')).toBe(true);
    expect(isPrerelease('2.0.0')).toBe(false);
    expect(isOfferedUpdate('2.0.0-beta.1', '1.0.0', 'stable')).toBe(false);
    expect(isOfferedUpdate('2.0.0-beta.1', '1.0.0', 'beta')).toBe(true);
    expect(isOfferedUpdate('2.0.0', '1.0.0', 'stable')).toBe(true);
  });

  it('never offers the same or an older version', () => {
    expect(isOfferedUpdate('1.0.0', '1.0', 'beta')).toBe(false);
    expect(isOfferedUpdate('0.9.9', '1.0.0', 'stable')).toBe(false);
    expect(isOfferedUpdate('1.0.0-rc.1', '1.0.0', 'beta')).toBe(false);
    expect(isOfferedUpdate('', '1.0.0', 'beta')).toBe(false);
  });
});
