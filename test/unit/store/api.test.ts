import { describe, expect, it } from 'vitest';
import { API_CHANNELS, EVENT_CHANNELS } from '../../../preload/ipc-contract.ts';

describe('preload API channel lists', () => {
  it('names every call once as area.call and every event once as area:event', () => {
    expect(new Set(API_CHANNELS).size).toBe(API_CHANNELS.length);
    expect(new Set(EVENT_CHANNELS).size).toBe(EVENT_CHANNELS.length);
    for (const c of API_CHANNELS) expect(c).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
    for (const e of EVENT_CHANNELS) expect(e).toMatch(/^[a-z]+:[a-zA-Z]+$/);
    for (const area of [
      'accounts',
      'send',
      'outbox',
      'inbox',
      'history',
      'contacts',
      'groups',
      'templates',
      'credit',
      'updates',
      'settings',
    ]) {
      expect(
        API_CHANNELS.some((c) => c.startsWith(`${area}.`)),
        area,
      ).toBe(true);
    }
  });
});
