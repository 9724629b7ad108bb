// End to end (issue 12): Compose's live counter measures the longest mail-merged text (a long contact
// name fills {name}) and the cost summed over every recipient's own text, not the template.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, shoot, startApp, type E2eApp } from './support.ts';

const LONG = 'Bartholomew Maximilian Fitzgerald-Worthington';

describe.skipIf(!HAS_CHROMIUM)('mail merge counter (web shell + Chromium)', { timeout: 90_000 }, () => {
  let app: E2eApp;
  let page: Page;

  beforeAll(async () => {
    app = await startApp('messenger-e2e-merge-', { viewport: { width: 1024, height: 720 } });
    ({ page } = app);
    await page.getByTestId('credit-amount').waitFor({ timeout: 20_000 });
  }, 180_000);
  afterAll(() => app?.close());

  it('counts the longest merged text and every recipient’s parts', async () => {
    await page.evaluate(async (long) => {
      await window.messenger!.contacts.add({ name: 'Al', number: '+447700900961' });
      await window.messenger!.contacts.add({ name: long, number: '+447700900962' });
    }, LONG);
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    for (const n of ['+447700900961', '+447700900962', '+447700900963']) {
      await entry.fill(n);
      await entry.press('Enter');
    }
    const counter = page.getByTestId('counter');
    // 140 characters of template: one SMS as typed, but "Dear Bartholomew …," makes it two.
    const template = `Dear {name|friend}, ${'x'.repeat(120)}`;
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill(template);
    await expect.poll(() => counter.textContent()).toContain('Longest merged text:');
    const text = (await counter.textContent()) ?? '';
    expect(text).toContain(`${`Dear ${LONG}, `.length + 120} characters`);
    expect(text).toContain('2 segments');
    // Two parts for the long name, one for Al, one for the number without a contact ("friend").
    expect(text).toContain('≈ 4 message credits');
    const note = (await page.getByTestId('merge-note').textContent()) ?? '';
    expect(note).toContain(`the longest text goes to ${LONG} (+447700900962)`);
    expect(note).toContain('3 recipients, 3 different texts; 1 number without a contact takes the fallback');
    await page.setViewportSize({ width: 720, height: 480 });
    await page.getByTestId('merge-note').scrollIntoViewIfNeeded();
    await shoot(page, 'compose-merge-counter');
    await page.setViewportSize({ width: 1024, height: 720 });
    // The confirmation (asked here above 2 recipients) says the parts are the longest text's.
    await page.evaluate(() => window.messenger!.settings.update({ confirmAboveRecipients: 2 }));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const figures = page.getByTestId('send-confirm');
    await figures.waitFor();
    expect(await figures.textContent()).toContain('Parts per message (the longest)up to 2');
    expect(await figures.textContent()).toContain('Estimated messages4');
    await page.getByRole('button', { name: 'Go back' }).click();
    await figures.waitFor({ state: 'detached' });

    // Without a merge field the template is measured again.
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('x'.repeat(140));
    await expect.poll(() => counter.textContent()).not.toContain('Longest merged text:');
    expect(await counter.textContent()).toContain('≈ 3 message credits');
    expect(await page.getByTestId('merge-note').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
