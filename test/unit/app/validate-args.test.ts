// The boundary check of every API channel and the version comparison of updates.check.
import { describe, expect, it } from 'vitest';
import { API_CHANNELS } from '../../../preload/ipc-contract.ts';
import { ApiError, ARG_CHECKS, checkArgument, isApiChannel } from '../../../main/services/validate-args.ts';
import { compareVersions } from '../../../main/services/versions.ts';
import { OUTBOUND_PAGE_MAX } from '../../../gateway/network/simulator.ts';

function refused(channel: (typeof API_CHANNELS)[number], arg: unknown): string {
  try {
    checkArgument(channel, arg);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('bad-argument');
    return (err as ApiError).message;
  }
  throw new Error(`${channel} took ${JSON.stringify(arg)}`);
}

describe('checkArgument', () => {
  it('has a check for every channel of the API', () => {
    expect(Object.keys(ARG_CHECKS).sort()).toEqual([...API_CHANNELS].sort());
    expect(isApiChannel('contacts.add')).toBe(true);
    expect(isApiChannel('contacts.__proto__')).toBe(false);
    expect(isApiChannel(42)).toBe(false);
  });

  it('takes well-formed arguments', () => {
    expect(() => checkArgument('contacts.list', undefined)).not.toThrow();
    expect(() => checkArgument('contacts.add', { name: 'A', number: '07700 900123' })).not.toThrow();
    expect(() => checkArgument('accounts.signIn', { sandbox: true })).not.toThrow();
    expect(() =>
      checkArgument('accounts.signIn', {
        username: 'u',
        pin: 'p',
        primaryUrl: 'https://x',
        rememberPin: false,
      }),
    ).not.toThrow();
    expect(() =>
      checkArgument('send.submit', {
        recipients: ['447700900123'],
        groupIds: [1],
        content: { kind: 'vcard', text: '', fields: { vCard: 'BEGIN:VCARD' } },
      }),
    ).not.toThrow();
    expect(() => checkArgument('outbox.jobs', undefined)).not.toThrow();
    expect(() =>
      checkArgument('history.messages', { filter: { status: ['failed', 'unknown'] } }),
    ).not.toThrow();
    expect(() =>
      checkArgument('contacts.importCsv', { csv: 'a', mapping: { name: ['First', 'Last'], number: 'Tel' } }),
    ).not.toThrow();
  });

  it('refuses wrong shapes and types, naming the field', () => {
    expect(refused('contacts.add', { name: 'A' })).toMatch(/argument\.number is required/);
    expect(refused('contacts.add', { name: 'A', number: 5 })).toMatch(/argument\.number must be a string/);
    expect(refused('contacts.add', { name: 'A', number: '1', admin: true })).toMatch(
      /admin is not a known field/,
    );
    expect(refused('contacts.get', -1)).toMatch(/above 0/);
    expect(refused('contacts.get', 1.5)).toMatch(/whole number/);
    expect(refused('contacts.list', 'x')).toMatch(/no argument/);
    expect(
      refused('send.submit', { recipients: '447700900123', content: { kind: 'text', text: 'x' } }),
    ).toMatch(/list/);
    expect(refused('send.submit', { recipients: [], content: { kind: 'fax', text: 'x' } })).toMatch(/kind/);
    expect(
      refused('send.submit', { recipients: [], content: { kind: 'vcard', text: '', fields: { vCard: 1 } } }),
    ).toMatch(/fields\.vCard/);
    // issue 16: server books and Cc/Bcc
    expect(() =>
      checkArgument('send.submit', {
        recipients: [],
        addressBooks: ['Friends::Team'],
        copies: { cc: ['447700900123'], ccAddressBook: 'Board' },
        content: { kind: 'vcard', text: '', fields: { vCard: 'BEGIN:VCARD' } },
      }),
    ).not.toThrow();
    expect(
      refused('send.submit', {
        recipients: [],
        addressBooks: 'Friends',
        content: { kind: 'text', text: 'x' },
      }),
    ).toMatch(/addressBooks must be a list/);
    expect(
      refused('send.submit', { recipients: [], copies: { to: ['1'] }, content: { kind: 'text', text: 'x' } }),
    ).toMatch(/copies\.to is not a known field/);
    expect(refused('accounts.signIn', { sandbox: 'yes' })).toMatch(/sandbox/);
    expect(refused('accounts.signIn', null)).toMatch(/object/);
    expect(refused('history.messages', { filter: { status: 'lost' } })).toMatch(/status/);
    expect(refused('settings.update', { pushReceiver: { enabled: true } })).toMatch(/port/);
    // Issue 27: the checks are type-checked against the API's argument types; that found the theme,
    // which the boundary let through as any string while Settings takes three.
    expect(refused('settings.update', { theme: 'pink' })).toMatch(
      /theme must be one of "system", "light", "dark"/,
    );
    expect(() => checkArgument('settings.update', { theme: 'dark' })).not.toThrow();
  });

  it("bounds sandbox.outbound's page by the sandbox network's own page size", () => {
    expect(OUTBOUND_PAGE_MAX).toBeGreaterThan(1);
    expect(() => checkArgument('sandbox.outbound', { limit: OUTBOUND_PAGE_MAX })).not.toThrow();
    expect(() => checkArgument('sandbox.outbound', { afterId: 0, limit: 1 })).not.toThrow();
    expect(refused('sandbox.outbound', { limit: OUTBOUND_PAGE_MAX + 1 })).toBe(
      `sandbox.outbound: argument.limit must be a whole number from 1 to ${OUTBOUND_PAGE_MAX}`,
    );
    expect(refused('sandbox.outbound', { limit: 0 })).toMatch(/from 1 to/);
  });
});

describe('compareVersions', () => {
  it('compares dotted versions numerically', () => {
    expect(compareVersions('1.2.10', '1.2.9')).toBe(1);
    expect(compareVersions('0.1.0', '0.1')).toBe(0);
    expect(compareVersions('v2.0', '10.0')).toBe(-1);
    expect(compareVersions('0.2.0', '0.1.9')).toBe(1);
  });
});
