// End to end (issue 26 item 4): a ringtone and a contact card sent through the web shell and the
// local sandbox are labelled in their thread ("Ringtone: Nokia tune", not an empty bubble), in
// the conversation list ("You: Contact card: Alice Smith", not "You:"), in History and in search
// (which finds them by their label). Screenshots at 1280×800 and 720×480, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('rich messages labelled (issue 26)', { timeout: 90_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-rich-labels-', { viewport: { width: 1280, height: 800 } });
    page = app.page;
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    await page.evaluate(async () => {
      const m = window.messenger!;
      await m.contacts.add({ name: 'Rita Ring', number: '+447700900601' });
      await m.send.submit({
        recipients: ['+447700900601'],
        content: {
          kind: 'ringtone',
          text: '',
          fields: { PhoneMake: 'Nokia', Ringtone: 'Nokia tune:d=4,o=5,b=225:8e6,8d6,4f#,4g#' },
        },
      });
      await m.send.submit({
        recipients: ['+447700900602'],
        content: {
          kind: 'vcard',
          text: '',
          fields: {
            vCard: 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Smith;Alice\r\nTEL;CELL:+447700900123\r\nEND:VCARD\r\n',
          },
        },
      });
    });
  }, 180_000);
  afterAll(() => app?.close());

  const list = () => page.getByRole('list', { name: 'Conversations' });

  it('labels the thread and the preview', async () => {
    await page.getByRole('button', { name: /^Inbox/ }).click();
    const vcardRow = list().locator('.conv', { hasText: '+447700900602' });
    await expect
      .poll(() => vcardRow.locator('.conv-last').textContent())
      .toBe('You: Contact card: Alice Smith');
    expect(await list().locator('.conv', { hasText: 'Rita Ring' }).locator('.conv-last').textContent()).toBe(
      'You: Ringtone: Nokia tune',
    );
    await list().getByText('Rita Ring').click();
    const thread = page.getByRole('region', { name: /Conversation with Rita Ring/ });
    const bubble = thread.getByTestId('bubble').first();
    await expect.poll(() => bubble.getByTestId('bubble-label').textContent()).toBe('Ringtone: Nokia tune');
    // Not an empty blue bubble: the label is drawn, large enough to read.
    const box = await bubble.boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    await shoot(page, 'rich-labels-thread');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'rich-labels-thread-720');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('finds a rich message by its label and labels the hit', async () => {
    const box = page.getByRole('searchbox', { name: 'Search messages and contacts' });
    await box.fill('alice smith');
    const results = page.getByTestId('search-results');
    // Issue 27: the message hit and the send (found as a send too) both labelled.
    for (const section of ['Messages', 'Sends'])
      await results
        .getByRole('region', { name: section })
        .locator('.hit-label', { hasText: 'Contact card: Alice Smith' })
        .waitFor();
    await shoot(page, 'rich-labels-search');
    await box.fill('');
  });

  it('titles the sends in History by their label', async () => {
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const titles = page.locator('.job .job-text');
    await expect
      .poll(() => titles.allTextContents())
      .toEqual(expect.arrayContaining(['Ringtone: Nokia tune', 'Contact card: Alice Smith']));
    await shoot(page, 'rich-labels-history');
    await page.setViewportSize({ width: 720, height: 480 });
    await shoot(page, 'rich-labels-history-720');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
