// Issue 24, item 5: a gateway that writes the Group column as the group's name alone (not the
// reference gateway's "book::group"). `address-book list` builds each SendToAddressBook reference
// from the book asked for and the group, and never prints a group as if it were a book.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli as cli } from '../../support/cli-run.ts';
import { foreignEnvelope, foreignServer, FOREIGN_TYPES_NS } from '../../support/foreign-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('a gateway that writes the group alone', () => {
  it('references are book::group with a book named; without one, groups are not taken for books', async () => {
    const server = await foreignServer((r) => {
      if (r.method !== 'POST') return { status: 404, contentType: 'text/plain', body: '' };
      const items =
        '<item><GivenName>Ann</GivenName><FamilyName>Lee</FamilyName><MobileNumber>447700900301</MobileNumber>' +
        '<Group>Friends</Group></item><item><MobileNumber>447700900302</MobileNumber></item>';
      return {
        body: foreignEnvelope(
          `<ns1:QueryAddressBookResponse xmlns:ns1="${FOREIGN_TYPES_NS}"><AddressBookEntryList>${items}` +
            '</AddressBookEntryList></ns1:QueryAddressBookResponse>',
        ),
      };
    });
    cleanups.push(() => server.close());
    const env = { MESSENGER_URL: server.url, MESSENGER_USERNAME: 'acme.1', MESSENGER_PIN: 'Secret9' };

    const book = await cli(['address-book', 'list', 'Club'], env);
    expect(book.code).toBe(0);
    expect(book.out.trim().split('\n')).toEqual([
      '447700900301\tAnn Lee\tClub::Friends',
      '447700900302\t\tClub',
    ]);

    const all = await cli(['address-book', 'list'], env);
    expect(all.code).toBe(0);
    expect(all.out).not.toMatch(/\tFriends$/m); // not printed as the reference of a book "Friends"
    expect(all.out).toMatch(/group Friends, book not given/);
    const json = await cli(['address-book', 'list', '--json'], env);
    const parsed = JSON.parse(json.out) as { value: Array<{ Group?: string; Reference: string | null }> };
    expect(parsed.value[0]).toMatchObject({ Group: 'Friends', Reference: null });
  });
});
