// Review of issue 27 item 6 (rev5): the Inbox opening a contact's conversation (inbox.open) moves the
// number's campaign recipients into it; the conversation list then shows the newest of them as its
// last message, as it showed the campaign's row of the campaign-only conversation before.
import { describe, expect, it } from 'vitest';
import type { AppDb } from '../../../main/store/db.ts';
import { OutboxJournal } from '../../../main/store/outbox-journal.ts';
import { ConversationsRepo } from '../../../main/store/conversations.ts';
import { withJournal } from './helpers.ts';

let app: AppDb;
withJournal((a) => {
  app = a;
});

describe('a contact’s conversation opened after a campaign to it', () => {
  it('lists the campaign’s message as its last one', () => {
    const journal = new OutboxJournal(app, { now: () => 1_000 });
    journal.createJob(['447700900001', '447700900002'], { kind: 'text', text: 'Spring sale' });
    const conversations = new ConversationsRepo(app);
    const opened = conversations.open('', '447700900001');
    expect(conversations.thread('', { conversationId: opened.id }).items.map((m) => m.text)).toEqual([
      'Spring sale',
    ]);
    expect(conversations.byPeer('', '447700900001')?.lastMessage).toMatchObject({
      direction: 'out',
      text: 'Spring sale',
    });
  });
});
