// End to end, the media picker in Compose: the real web shell (`main/web.ts --sandbox`) and
// Debian's Chromium. A library ringtone picked and sent (after the RTTTL editor refused a bad
// note with its position); an operator logo drawn with mouse and keyboard, its network found by
// name, sent; a PNG imported as a picture message with text, sent. Each time the per-recipient
// result is shown and what the handset got is decoded from the sandbox's /sandbox/outbound PDUs.
// Screenshots of the picker and the bitmap editor land in test-results/media-*.png.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bitmapToRows } from '../../protocol/smart/ota-bitmap.ts';
import { decodePdusToContent, type ReceivedMessage } from '../../protocol/smart/sms-submit.ts';
import { HAS_CHROMIUM, shoot as shootPage, startApp, type E2eApp } from './support.ts';

describe.skipIf(!HAS_CHROMIUM)('media picker end to end (web shell + Chromium)', { timeout: 90_000 }, () => {
  let app: E2eApp;
  let tmp: string;
  let page: Page;
  let pageErrors: string[];
  let sandboxUrl = '';

  beforeAll(async () => {
    app = await startApp('messenger-media-e2e-', { viewport: { width: 1280, height: 1000 } });
    ({ tmp, page, pageErrors } = app);
    await page.getByTestId('credit-amount').waitFor({ timeout: 30_000 });
    const account = await page.evaluate(() => window.messenger!.accounts.current());
    sandboxUrl = account?.primaryUrl ?? '';
  }, 180_000);

  afterAll(() => app?.close());

  const shoot = (name: string) => shootPage(page, name, { fullPage: true });

  /** A fresh Compose with one recipient and the given content kind. */
  async function composeTo(number: string, content: string) {
    await page.keyboard.press('Control+n');
    const entry = page.getByRole('combobox', { name: 'To', exact: true });
    await entry.fill(number);
    await entry.press('Enter');
    await page.getByLabel('Content', { exact: true }).selectOption({ label: content });
  }

  /** Sends, waits for the recipient's accepted result in the table, returns what the handset got. */
  async function sendAndReceive(msisdn: string): Promise<ReceivedMessage> {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const row = page
      .getByTestId('send-results')
      .locator('tbody tr')
      .filter({ hasText: `+${msisdn}` });
    await row
      .locator('[data-status="accepted"], [data-status="queued"], [data-status="delivered"]')
      .waitFor({ timeout: 20_000 });
    await page
      .getByTestId('send-outcome')
      .filter({ hasText: /^All 1 recipient (accepted|delivered)/ })
      .waitFor({ timeout: 20_000 });
    let received: ReceivedMessage[] = [];
    await expect
      .poll(
        async () => {
          const res = await fetch(`${sandboxUrl}/sandbox/outbound?recipient=${msisdn}`);
          const rows = (await res.json()) as Array<{ pdu: string }>;
          received = decodePdusToContent(rows.map((r) => r.pdu));
          return received.length;
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    return received[0]!;
  }

  it('refuses a bad RTTTL note with its position, then sends a ringtone picked from the library', async () => {
    await composeTo('+44 7700 900951', 'Ringtone');
    const rtttl = page.getByRole('textbox', { name: 'RTTTL / RTX' });
    await rtttl.waitFor();
    // The sample parses: notes on the staff, tempo and Nokia size shown, Send enabled.
    await expect.poll(() => page.getByTestId('ringtone-info').textContent()).toMatch(/Tempo 125 bpm/);
    expect(await page.getByTestId('ringtone-size').textContent()).toMatch(/Nokia binary \d+ bytes, 1 SMS/);
    await page.getByRole('img', { name: /^7 notes: C5 1\/8/ }).waitFor();
    await shoot('media-ringtone');
    // Preview through Web Audio: Play turns into Stop while it plays, and back.
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Play' }).waitFor();

    // A .rtttl file imported: octave changes, a dotted note and a pause, tempo 180.
    const tune = join(tmp, 'tune.rtttl');
    writeFileSync(tune, 'Tune:d=4,o=5,b=180:8c6.,p,2a#4,16g7\n');
    await page.getByLabel('Import a ringtone file').setInputFiles(tune);
    await expect.poll(() => rtttl.inputValue()).toBe('Tune:d=4,o=5,b=180:8c6.,p,2a#4,16g7');
    await expect
      .poll(() => page.getByTestId('ringtone-info').textContent())
      .toMatch(/4 notes.*Tempo 180 bpm/);
    await page.getByRole('img', { name: '4 notes: C6 1/8 dotted, rest 1/4, A#4 1/2, G7 1/16' }).waitFor();

    await rtttl.fill('Bad:d=4,o=5,b=120:c,d,x,e');
    await page
      .getByTestId('rtttl-error')
      .getByText('Line 1, column 23: "x" is not a note letter (a-g, h or p)')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await page
      .getByTestId('content-problems')
      .getByText('Ringtone, line 1 column 23: "x" is not a note letter (a-g, h or p).')
      .waitFor();
    await shoot('media-ringtone-error');

    await page.getByRole('radio', { name: 'Library' }).check();
    const list = page.getByRole('listbox', { name: 'From the library' });
    await list.locator('option').first().waitFor();
    const option = list.locator('option').first();
    const chosen = (await option.getAttribute('value')) ?? '';
    expect(chosen).toMatch(/^3\d{4}$/);
    await list.selectOption(chosen);
    expect(await page.getByRole('textbox', { name: 'Library number' }).inputValue()).toBe(chosen);
    expect(await page.getByLabel('Phone make').inputValue()).toBe('Nokia');
    await shoot('media-picker-library');

    const got = await sendAndReceive('447700900951');
    expect(got.content.kind).toBe('ringtone');
    if (got.content.kind === 'ringtone') expect(got.content.song.notes.length).toBeGreaterThan(0);
    const jobs = await page.evaluate(() => window.messenger!.outbox.jobs({ limit: 1 }));
    expect(jobs[0]?.content).toMatchObject({
      kind: 'ringtone',
      fields: { Ringtone: chosen, PhoneMake: 'Nokia' },
    });
  });

  it('draws an operator logo with mouse and keyboard, finds the network by name and sends it', async () => {
    await composeTo('447700900952', 'Operator logo');
    const canvas = page.getByTestId('bitmap-canvas');
    await canvas.waitFor();
    // Nothing drawn, no network: Send disabled with both reasons.
    const problems = page.getByTestId('content-problems');
    await problems.getByText('The logo is blank: draw or import something.').waitFor();
    await problems.getByText('Choose a network or type its MCC.').waitFor();
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);

    // Mouse: a click on cell (10, 5); a drag along row 8 from x=20 to x=29 (one undo step).
    const box = (await canvas.boundingBox())!;
    const cell = box.width / 72;
    const at = (x: number, y: number) => ({ x: box.x + (x + 0.5) * cell, y: box.y + (y + 0.5) * cell });
    await page.mouse.click(at(10, 5).x, at(10, 5).y);
    await page.mouse.move(at(20, 8).x, at(20, 8).y);
    await page.mouse.down();
    for (let x = 21; x <= 29; x++) await page.mouse.move(at(x, 8).x, at(x, 8).y);
    await page.mouse.up();
    await page.getByTestId('bitmap-status').getByText('72×14, 11 black pixels').waitFor();
    // Undo takes the whole stroke back; redo restores it (Ctrl+Z / Ctrl+Y on the canvas).
    await canvas.focus();
    await page.keyboard.press('Control+z');
    await page.getByTestId('bitmap-status').getByText('72×14, 1 black pixel').waitFor();
    await page.keyboard.press('Control+y');
    await page.getByTestId('bitmap-status').getByText('72×14, 11 black pixels').waitFor();
    // Keyboard: the cursor is where the pointer went down last, (20, 8); arrows move, Space draws.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.getByTestId('bitmap-status').getByText('72×14, 13 black pixels').waitFor();

    const search = page.getByRole('combobox', { name: 'Network' });
    await search.fill('vodafone germ');
    await page.getByRole('option', { name: /Vodafone Germany/ }).waitFor();
    await shoot('media-logo-editor');
    await search.press('Enter');
    expect(await page.getByRole('textbox', { name: 'MCC' }).inputValue()).toBe('262');
    expect(await page.getByRole('textbox', { name: 'MNC' }).inputValue()).toBe('02');
    await page.getByTestId('network-chosen').getByText('Vodafone Germany, Germany (262 02)').waitFor();
    expect(await problems.count()).toBe(0);
    await shoot('media-logo-ready');

    const got = await sendAndReceive('447700900952');
    expect(got.content.kind).toBe('operatorLogo');
    if (got.content.kind !== 'operatorLogo') return;
    expect([got.content.mcc, got.content.mnc]).toEqual([262, 2]);
    const rows = bitmapToRows(got.content.bitmap);
    const black: string[] = [];
    rows.forEach((r, y) => [...r].forEach((c, x) => c === '#' && black.push(`${x},${y}`)));
    expect(black.sort()).toEqual(
      ['20,6', '23,7', '10,5', ...Array.from({ length: 10 }, (_, i) => `${20 + i},8`)].sort(),
    );
  });

  it('sends a group graphic from the library, PhoneMake forced to Nokia', async () => {
    await composeTo('447700900954', 'Group graphic');
    const make = page.getByLabel('Phone make');
    expect(await make.inputValue()).toBe('Nokia');
    expect(await make.isDisabled()).toBe(true);
    // the reason comes with the disabled select (protocol's requiredPhoneMake)
    const noteId = await make.getAttribute('aria-describedby');
    expect(await page.locator(`#${noteId}`).textContent()).toBe(
      'Group graphics are sent to Nokia handsets only.',
    );
    await page.getByRole('radio', { name: 'Library' }).check();
    const number = page.getByRole('textbox', { name: 'Library number' });
    // A picture number is outside the range of group graphics (spec 8): refused before sending.
    await number.fill('20000');
    await page
      .getByTestId('content-problems')
      .getByText('Library number 20000 is outside 10000–19999, the range of this kind of content.')
      .waitFor();
    const list = page.getByRole('listbox', { name: 'From the library' });
    const option = list.locator('option', { hasText: 'group' }).first();
    const chosen = (await option.getAttribute('value')) ?? '';
    expect(chosen).toMatch(/^1\d{4}$/);
    await list.selectOption(chosen);
    expect(await number.inputValue()).toBe(chosen);
    const got = await sendAndReceive('447700900954');
    expect(got.content.kind).toBe('groupGraphic');
    if (got.content.kind === 'groupGraphic')
      expect([got.content.bitmap.width, got.content.bitmap.height]).toEqual([72, 14]);
  });

  it('imports a PNG as a picture message with text and sends it', async () => {
    // 144×56, left half black: scaled to 72×28 it is 36 black columns and 36 white ones.
    const img = new Jimp({ width: 144, height: 56, color: 0xffffffff });
    for (let y = 0; y < 56; y++) for (let x = 0; x < 72; x++) img.setPixelColor(0x000000ff, x, y);
    const file = join(tmp, 'half.png');
    writeFileSync(file, await img.getBuffer('image/png'));

    await composeTo('447700900953', 'Picture message');
    // A uniform grey 160: dithered, part of it black; as a plain threshold at 128 all white, at 200 all black.
    const grey = join(tmp, 'grey.png');
    writeFileSync(grey, await new Jimp({ width: 72, height: 28, color: 0xa0a0a0ff }).getBuffer('image/png'));
    await page.getByLabel('Import an image into the picture').setInputFiles(grey);
    await page.getByText('Imported grey.png').waitFor();
    const status = page.getByTestId('bitmap-status');
    const blackNow = async () => Number(/(\d+) black/.exec((await status.textContent()) ?? '')?.[1]);
    await expect.poll(blackNow).toBeGreaterThan(200);
    expect(await blackNow()).toBeLessThan(72 * 28 - 200);
    await page.getByRole('checkbox', { name: 'Dither (Floyd–Steinberg)' }).uncheck();
    await status.getByText('72×28, 0 black pixels').waitFor();
    await page.getByRole('slider', { name: 'Threshold' }).fill('200');
    await status.getByText(`72×28, ${72 * 28} black pixels`).waitFor();
    await page.getByRole('checkbox', { name: 'Dither (Floyd–Steinberg)' }).check();
    await page.getByRole('slider', { name: 'Threshold' }).fill('128');

    await page.getByLabel('Import an image into the picture').setInputFiles(file);
    await page.getByText('Imported half.png').waitFor();
    await page
      .getByTestId('bitmap-status')
      .getByText(`72×28, ${36 * 28} black pixels`)
      .waitFor();
    await page.getByRole('slider', { name: 'Threshold' }).waitFor();
    await page.getByRole('textbox', { name: 'Picture text' }).fill('Half and half');
    await shoot('media-picture-import');

    const got = await sendAndReceive('447700900953');
    expect(got.content.kind).toBe('pictureMessage');
    if (got.content.kind !== 'pictureMessage') return;
    expect(got.content.text).toBe('Half and half');
    expect(bitmapToRows(got.content.bitmap)).toEqual(Array(28).fill('#'.repeat(36) + '.'.repeat(36)));
    expect(pageErrors).toEqual([]);
  });

  it('the virtual phone shows each: the ringtone, the drawn logo with its network, the group graphic, the picture', async () => {
    const handset = async (to: string) => {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page
        .getByRole('list', { name: 'Handsets' })
        .getByRole('button', { name: new RegExp(`\\+${to}`) })
        .click();
      return page.getByRole('region', { name: `Handset +${to}` });
    };
    await page.getByRole('button', { name: 'Virtual phone' }).click();
    const ringtone = (await handset('447700900951')).getByRole('article', { name: 'Ringtone' });
    await ringtone.getByRole('button', { name: /Play/ }).waitFor();
    const logo = (await handset('447700900952')).getByRole('article', { name: 'Operator logo' });
    await logo.getByRole('img', { name: 'Operator logo, 72×14 pixels' }).waitFor();
    expect(await logo.textContent()).toContain('MCC 262, MNC 02');
    await (await handset('447700900954')).getByRole('img', { name: 'Group graphic, 72×14 pixels' }).waitFor();
    const picture = (await handset('447700900953')).getByRole('article', { name: 'Picture message' });
    await picture.getByRole('img', { name: 'Picture, 72×28 pixels' }).waitFor();
    expect(await picture.textContent()).toContain('Half and half');
    await shoot('media-virtual-phone');
    expect(pageErrors).toEqual([]);
  });
});
