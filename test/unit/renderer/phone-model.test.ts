// The virtual phone's model: PDUs grouped per handset and message, reassembled, decoded, ordered.
import { describe, expect, it } from 'vitest';
import type { SandboxPdu } from '../../../preload/api.ts';
import { bytesToHex, encodeContentToPdus } from '../../../protocol/smart/index.ts';
import {
  appendPdus,
  buildHandsets,
  pullPdus,
  readVCalendar,
  readVCard,
  utcToLocal,
} from '../../../renderer/views/phone-model.ts';
import type { FetchPdus, PduWindow } from '../../../renderer/views/phone-model.ts';

let nextId = 1;
function rows(messageIdentifier: string, to: string, pdus: Uint8Array[]): SandboxPdu[] {
  return pdus.map((pdu, i) => ({
    id: nextId++,
    messageIdentifier,
    recipient: to,
    part: i + 1,
    parts: pdus.length,
    pdu: bytesToHex(pdu),
    createdAt: '2026-11-22T12:00:00.000Z',
  }));
}

describe('buildHandsets', () => {
  it('groups by handset and message, reassembles interleaved parts, newest first', () => {
    const vcard = `BEGIN:VCARD\r\nVERSION:2.1\r\nN:Long;Card\r\nNOTE:${'n'.repeat(300)}\r\nEND:VCARD\r\n`;
    const a = rows(
      'M1',
      '447700900001',
      encodeContentToPdus({ kind: 'vcard', vcard }, '447700900001', { concatRef: 7 }).map((p) => p.pdu),
    );
    const b = rows(
      'M2',
      '447700900002',
      encodeContentToPdus({ kind: 'text', text: 'Hi B' }, '447700900002').map((p) => p.pdu),
    );
    const c = rows(
      'M3',
      '447700900001',
      encodeContentToPdus({ kind: 'flash', text: 'Later' }, '447700900001').map((p) => p.pdu),
    );
    expect(a.length).toBeGreaterThan(2);
    // parts of M1 arrive out of order with the others between them, one twice (a repeated fetch)
    const shuffled = [a[2]!, b[0]!, a[0]!, c[0]!, a[1]!, a[0]!, ...a.slice(3)];
    const handsets = buildHandsets(shuffled);
    expect(handsets.map((h) => h.recipient)).toEqual(['447700900001', '447700900002']);
    const one = handsets[0]!;
    expect(one.messages.map((m) => m.messageIdentifier)).toEqual(['M3', 'M1']);
    expect(one.messages[0]?.content).toEqual({ kind: 'flash', text: 'Later' });
    expect(one.messages[1]).toMatchObject({
      complete: true,
      partsReceived: a.length,
      partsExpected: a.length,
    });
    expect(one.messages[1]?.content).toEqual({ kind: 'vcard', vcard });
    expect(handsets[1]?.messages[0]?.content).toEqual({ kind: 'text', text: 'Hi B' });
  });

  it('shows a message with missing parts as incomplete binary, and an undecodable PDU as an error', () => {
    const parts = encodeContentToPdus({ kind: 'vcalendar', vcalendar: 'x'.repeat(300) }, '447700900003').map(
      (p) => p.pdu,
    );
    const partial = rows('M4', '447700900003', parts).slice(0, 1);
    const [h] = buildHandsets([...partial, ...rows('M5', '447700900003', [Uint8Array.of(1, 2, 3)])]);
    const m4 = h!.messages.find((m) => m.messageIdentifier === 'M4')!;
    expect(m4).toMatchObject({ complete: false, partsReceived: 1, partsExpected: parts.length });
    expect(m4.content?.kind).toBe('binary');
    const m5 = h!.messages.find((m) => m.messageIdentifier === 'M5')!;
    expect(m5.content).toBeNull();
    expect(m5.error).toMatch(/too short/);
  });

  it('reads vCard and vCalendar text, or says why not', () => {
    expect(readVCard('BEGIN:VCARD\r\nN:A;B\r\nEND:VCARD')).toMatchObject({
      card: { name: { family: 'A', given: 'B' } },
    });
    expect(readVCard('nonsense')).toEqual({ error: expect.stringMatching(/has no ":"/) });
    expect(readVCalendar('BEGIN:VCALENDAR\r\nVERSION:1.0\r\nEND:VCALENDAR\r\n')).toEqual({
      calendar: { events: [] },
    });
    expect(utcToLocal('not a date')).toBe('not a date');
    expect(utcToLocal('2026-11-22T12:00:00')).toBe(utcToLocal('2026-11-22T12:00:00Z'));
  });
});

describe('pullPdus and appendPdus (the phone reading the sandbox network page by page)', () => {
  const texts = (n: number): SandboxPdu[] =>
    Array.from({ length: n }, (_, i) =>
      rows(`P${i}`, '447700900009', [
        encodeContentToPdus({ kind: 'text', text: `#${i}` }, '447700900009')[0]!.pdu,
      ]),
    ).flat();

  /** sandbox.outbound over `network` (ids increasing), failing the calls whose number is in `failing`. */
  function outbound(network: SandboxPdu[], failing: Set<number>): { fetch: FetchPdus; calls: number[] } {
    const calls: number[] = [];
    const fetch: FetchPdus = async ({ afterId, limit }) => {
      calls.push(afterId);
      if (failing.has(calls.length)) throw new Error(`network down on call ${calls.length}`);
      const items = network.filter((p) => p.id > afterId).slice(0, limit);
      const more = network.some((p) => p.id > (items[items.length - 1]?.id ?? afterId)) && items.length > 0;
      return { items, next: more ? items[items.length - 1]!.id : null };
    };
    return { fetch, calls };
  }

  it('keeps every page that arrived before a later page failed, and the retry neither loses nor repeats one', async () => {
    const network = texts(7);
    const { fetch, calls } = outbound(network, new Set([2]));
    let held: PduWindow = { pdus: [], trimmed: false };
    let cursor = 0;
    const keep = (items: SandboxPdu[], next: number) => {
      cursor = next;
      held = appendPdus(held, items, 5000);
    };
    await expect(pullPdus(fetch, cursor, 3, keep)).rejects.toThrow('network down on call 2');
    // the first page is kept although the second failed; the cursor is right after it
    expect(held.pdus.map((p) => p.id)).toEqual(network.slice(0, 3).map((p) => p.id));
    expect(cursor).toBe(network[2]!.id);
    await pullPdus(fetch, cursor, 3, keep);
    expect(held.pdus.map((p) => p.id)).toEqual(network.map((p) => p.id));
    expect(calls).toEqual([0, network[2]!.id, network[2]!.id, network[5]!.id]);
    expect(buildHandsets(held.pdus)[0]?.messages).toHaveLength(7);
  });

  it('stops on an empty page and reads nothing twice when nothing is new', async () => {
    const network = texts(2);
    const { fetch, calls } = outbound(network, new Set());
    const pages: number[][] = [];
    await pullPdus(fetch, network[1]!.id, 10, (items) => pages.push(items.map((p) => p.id)));
    expect(pages).toEqual([]);
    expect(calls).toEqual([network[1]!.id]);
  });

  it('keeps the latest PDUs up to the cap and says that older ones were let go', () => {
    const network = texts(5);
    let held: PduWindow = { pdus: [], trimmed: false };
    held = appendPdus(held, network.slice(0, 3), 4);
    expect(held).toEqual({ pdus: network.slice(0, 3), trimmed: false });
    expect(appendPdus(held, [], 4)).toBe(held);
    held = appendPdus(held, network.slice(3), 4);
    expect(held.trimmed).toBe(true);
    expect(held.pdus.map((p) => p.id)).toEqual(network.slice(1).map((p) => p.id));
  });
});
