// End to end (web shell --sandbox + Debian's Chromium): the rich-content editors in Compose and the
// virtual phone. A vCard of an address-book contact, a vCalendar event and a service indication are
// made in their editors, sent, and seen decoded on the recipients' handsets; the WAP push, MMS and
// PDU editors refuse what does not belong; the phone also renders a ringtone, an operator logo, a
// picture message and an MMS notification sent through the API. Screenshots land in test-results/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { strToU8, zipSync } from 'fflate';
import { HAS_CHROMIUM, shoot as shootPage, startApp, type E2eApp } from './support.ts';

/** A 1×1 GIF. */
const TINY_GIF = [
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21, 0xf9, 4, 1, 0,
  0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b,
];

describe.skipIf(!HAS_CHROMIUM)(
  'rich content editors and the virtual phone (web shell + Chromium)',
  { timeout: 60_000 },
  () => {
    let app: E2eApp;
    let tmp: string;
    let page: Page;
    let pageErrors: string[];

    beforeAll(async () => {
      app = await startApp('messenger-e2e-phone-', {
        viewport: { width: 1280, height: 900 },
        timezoneId: 'Europe/Berlin',
      });
      ({ tmp, page, pageErrors } = app);
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    }, 180_000);

    afterAll(() => app?.close());

    const shoot = (name: string, fullPage = false) => shootPage(page, name, { fullPage });

    /** A fresh Compose with one recipient and the given content kind chosen. */
    const compose = async (to: string, content: string) => {
      await page.getByRole('button', { name: 'Compose' }).click();
      const entry = page.getByRole('combobox', { name: 'To', exact: true });
      await entry.fill(to);
      await entry.press('Enter');
      await page
        .getByRole('listitem')
        .filter({ hasText: `+${to}` })
        .waitFor();
      await page.getByLabel('Content', { exact: true }).selectOption({ label: content });
    };

    const sendAndWait = async (to: string) => {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page
        .getByTestId('send-results')
        .locator('tbody tr')
        .filter({ hasText: `+${to}` })
        .locator('[data-status="accepted"], [data-status="queued"], [data-status="delivered"]')
        .waitFor({ timeout: 20_000 });
    };

    /** The virtual phone, showing this handset. */
    const handset = async (to: string) => {
      await page.getByRole('button', { name: 'Virtual phone' }).click();
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page
        .getByRole('list', { name: 'Handsets' })
        .getByRole('button', { name: new RegExp(`\\+${to}`) })
        .click();
      return page.getByRole('region', { name: `Handset +${to}` });
    };

    it('shows the virtual phone for the sandbox account, empty at first', async () => {
      await page.getByRole('button', { name: 'Virtual phone' }).click();
      await page.getByText('Nothing received yet.').waitFor();
    });

    it('sends a vCard of an address-book contact and the handset shows its fields', async () => {
      await page.evaluate(() =>
        window.messenger!.contacts.add({
          name: 'Renée Fischer',
          number: '+49 170 5550101',
          email: 'renee@example.org',
        }),
      );
      await compose('447700900401', 'vCard (contact)');
      const editor = page.getByRole('group', { name: 'vCard' });
      await editor
        .getByLabel('Contact', { exact: true })
        .selectOption({ label: 'Renée Fischer (+491705550101)' });
      const preview = editor.getByLabel('vCard preview');
      await preview.waitFor();
      expect(await preview.textContent()).toContain('TEL;CELL:+491705550101');
      await shoot('editor-vcard');
      await sendAndWait('447700900401');

      const phone = await handset('447700900401');
      const card = phone.getByRole('article', { name: 'Contact card (vCard)' });
      await card.waitFor({ timeout: 15_000 });
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Renée Fischer');
      expect(text).toContain('+491705550101');
      expect(text).toContain('renee@example.org');
    });

    it('makes a vCalendar event in local time; the handset shows it with its reminder', async () => {
      await compose('447700900402', 'vCalendar (event)');
      const editor = page.getByRole('group', { name: 'vCalendar event' });
      // nothing is sent without a title: the problem is said
      await expect
        .poll(() => page.getByTestId('content-problems').textContent())
        .toContain('Give the event a title.');
      expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
      await editor.getByLabel('Title').fill('Quarterly review');
      await editor.getByLabel('Starts (local time)').fill('2026-12-10T14:30');
      await editor.getByLabel('Ends (local time)').fill('2026-12-10T16:00');
      await editor.getByLabel('Location').fill('Room 5');
      await editor.getByLabel('Reminder (minutes before)').fill('20');
      // Berlin is UTC+1 in December: the vCal carries UTC
      await editor.getByText('UTC 2026-12-10 13:30').waitFor();
      expect(await editor.getByLabel('vCalendar preview').textContent()).toContain(
        'DTSTART:20261210T133000Z',
      );
      await shoot('editor-vcalendar');
      await sendAndWait('447700900402');

      const phone = await handset('447700900402');
      const ev = phone.getByRole('article', { name: 'Calendar event (vCalendar)' });
      await ev.waitFor({ timeout: 15_000 });
      const text = (await ev.textContent()) ?? '';
      expect(text).toContain('Quarterly review');
      expect(text).toContain('Room 5');
      expect(text).toContain('UTC 2026-12-10 13:30');
      expect(text).toContain('20 minutes before');
      await shoot('phone-vcalendar');
      // with several handsets, the list can be narrowed by number
      await page.getByRole('searchbox', { name: 'Find a handset' }).fill('0401');
      await expect
        .poll(() => page.getByRole('list', { name: 'Handsets' }).getByRole('button').count())
        .toBe(1);
      await page.getByRole('searchbox', { name: 'Find a handset' }).fill('');
    });

    it('sends a service indication with a generated si-id; the handset shows its text and link', async () => {
      await compose('447700900403', 'Service indication (WAP push link)');
      const editor = page.getByRole('group', { name: 'Service indication' });
      const id = editor.getByLabel('Indication id (si-id)');
      const generated = await id.inputValue();
      expect(generated).toMatch(/^si-/);
      await editor.getByRole('button', { name: 'New id' }).click();
      expect(await id.inputValue()).not.toBe(generated);
      await id.fill('');
      await editor.getByText(/discarded silently/).waitFor();
      await editor.getByRole('button', { name: 'New id' }).click();
      await editor.getByLabel('Link (si-href)').fill('http://wap.example.com/news');
      await editor.getByLabel('Text shown on the handset (si-content)').fill('Breaking news inside');
      await editor.getByLabel('Action (si-action)').selectOption('signal-high');
      await shoot('editor-si');
      await sendAndWait('447700900403');

      const phone = await handset('447700900403');
      const si = phone.getByRole('article', { name: 'Service indication (WAP push)' });
      await si.waitFor({ timeout: 15_000 });
      const text = (await si.textContent()) ?? '';
      expect(text).toContain('Breaking news inside');
      expect(text).toContain('signal-high');
      // the link is shown, not a clickable way out to the web
      await si.locator('code', { hasText: 'http://wap.example.com/news' }).waitFor();
      expect(await si.getByRole('link').count()).toBe(0);
      await shoot('phone-si');
    });

    it('the WAP push, MMS and PDU editors say what does not belong before sending', async () => {
      await compose('447700900404', 'WAP push file');
      const wap = page.getByRole('group', { name: 'WAP push file' });
      await wap.getByLabel('Library number').fill('20000');
      await expect
        .poll(() => page.getByTestId('content-problems').textContent())
        .toContain('Library number 20000 is outside 80000–89999, the range of this kind of content.');
      expect(await wap.getByLabel('Library number').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
      await wap.getByLabel('Upload a file').check();
      const mmsFile = join(tmp, 'show.mms');
      writeFileSync(mmsFile, Uint8Array.of(0x8c, 0x84));
      await wap.getByLabel('File', { exact: true }).setInputFiles(mmsFile);
      await wap
        .getByTestId('content-selection')
        .getByText(/send it as an MMS notification/)
        .waitFor();
      await shoot('editor-wap-push');

      await page.getByLabel('Content', { exact: true }).selectOption({ label: 'MMS notification' });
      const mms = page.getByRole('group', { name: 'MMS notification' });
      await mms.getByLabel('Library number').fill('80000');
      await mms.getByLabel('Subject').fill('Welcome aboard');
      await mms.getByText('Advanced').click();
      await mms.getByLabel(/DisableWalledGardenRule/).check();
      await mms.getByLabel('SMIL layout (AddSMIL)').selectOption('1');
      await shoot('editor-mms');
      await sendAndWait('447700900404');

      await page.getByLabel('Content', { exact: true }).selectOption({ label: 'SMS PDU (expert)' });
      const pdu = page.getByRole('group', { name: 'SMS-SUBMIT PDU' });
      await pdu.getByLabel('Preset').selectOption({ label: 'vCalendar (9205)' });
      await pdu.getByRole('button', { name: 'Build header' }).click();
      expect(await pdu.getByLabel('User data header (hex)').inputValue()).toBe('06050423F50000');
      await pdu.getByLabel('User data (hex)').fill('48656C6C6F');
      const explained = pdu.getByRole('table', { name: 'PDU explained' });
      await explained.getByText(/to 9205 \(vCalendar\)/).waitFor();
      await explained.getByText('5 octets of data').waitFor();
      await shoot('editor-pdu', true);
    });

    it('renders a ringtone, an operator logo, a group graphic, a picture message and an MMS notification', async () => {
      const to = '447700900405';
      const sends: Array<{ kind: string; text: string; fields: Record<string, string> }> = [
        {
          kind: 'ringtone',
          text: '',
          fields: { PhoneMake: 'Nokia', Ringtone: 'Tune:d=8,o=5,b=160:c,e,g,c6,4p,g,c6' },
        },
        {
          kind: 'operatorLogo',
          text: '',
          fields: { PhoneMake: 'Nokia', OperatorLogo: '10001', MCC: '262', MNC: '1' },
        },
        { kind: 'groupGraphic', text: '', fields: { PhoneMake: 'Nokia', GroupGraphic: '10002' } },
        {
          kind: 'pictureMessage',
          text: 'Greetings',
          fields: { PhoneMake: 'Nokia', PictureMessage: '20001' },
        },
      ];
      for (const content of sends)
        await page.evaluate(
          (c) =>
            window.messenger!.send.submit({
              recipients: [c.to],
              content: { kind: c.kind as 'ringtone', text: c.text, fields: c.fields },
            }),
          { ...content, to },
        );
      const phone = await handset(to);
      await expect.poll(async () => phone.getByRole('article').count(), { timeout: 20_000 }).toBe(4);
      // Play sounds the tune (Web Audio) and turns into Stop until it ends or is stopped
      const ringtone = phone.getByRole('article', { name: 'Ringtone' });
      await ringtone.getByRole('button', { name: 'Play ringtone Tune' }).click();
      await ringtone.getByRole('button', { name: 'Stop ringtone Tune' }).click();
      await ringtone.getByRole('button', { name: 'Play ringtone Tune' }).waitFor();
      expect(await phone.getByRole('article', { name: 'Ringtone' }).textContent()).toMatch(
        /Tune — 7 notes, 160 bpm/,
      );
      await phone.getByRole('img', { name: 'Operator logo, 72×14 pixels' }).waitFor();
      expect(await phone.getByRole('article', { name: 'Operator logo' }).textContent()).toContain(
        'MCC 262, MNC 01',
      );
      await phone.getByRole('img', { name: 'Picture, 72×28 pixels' }).waitFor();
      await phone.getByRole('img', { name: 'Group graphic, 72×14 pixels' }).waitFor();
      // the logo is drawn: black pixels on the display green
      const dark = await phone.getByRole('img', { name: 'Operator logo, 72×14 pixels' }).evaluate((c) => {
        const canvas = c as HTMLCanvasElement;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 80) n++;
        return n;
      });
      // stripes: every other 4 columns black, i.e. half of the 72×14 pixels (scaled 4×4 on the canvas)
      expect(dark).toBe((72 * 14 * 16) / 2);
      await shoot('phone-smart');

      const mms = await handset('447700900404');
      const n = mms.getByRole('article', { name: 'MMS notification' });
      await n.waitFor({ timeout: 15_000 });
      expect(await n.textContent()).toContain('Welcome aboard');
      await n.locator('code', { hasText: /\/content\/[0-9a-f]{24}/ }).waitFor();
      await shoot('phone-mms');
    });

    it('uploads a ZIP of parts as an MMS notification: parts listed, the handset gets the notification', async () => {
      const zipFile = join(tmp, 'holiday.zip');
      writeFileSync(
        zipFile,
        zipSync({ 'note.txt': strToU8('Greetings from the coast'), 'beach.gif': Uint8Array.from(TINY_GIF) }),
      );
      await compose('447700900406', 'MMS notification');
      const mms = page.getByRole('group', { name: 'MMS notification' });
      await mms.getByLabel('Upload a .mms or a .zip of parts').check();
      await mms.getByLabel('MMS file', { exact: true }).setInputFiles(zipFile);
      const parts = mms.getByRole('list', { name: 'Parts of the ZIP' });
      await parts.getByText('note.txt — text, 24 bytes').waitFor();
      await parts.getByText(/beach\.gif — image/).waitFor();
      await mms.getByLabel('Subject').fill('Holiday');
      await shoot('editor-mms-zip');
      await sendAndWait('447700900406');
      const phone = await handset('447700900406');
      const n = phone.getByRole('article', { name: 'MMS notification' });
      await n.waitFor({ timeout: 15_000 });
      expect(await n.textContent()).toContain('Holiday');
      expect(pageErrors).toEqual([]);
    });

    it('offers the library numbers of MMS and WAP push uploads again in their editors', async () => {
      // the ZIP sent above was composed and stored as holiday.mms under a library number: the MMS editor
      // lists it as the account's own
      await compose('447700900407', 'MMS notification');
      const mms = page.getByRole('group', { name: 'MMS notification' });
      const mmsList = mms.getByRole('listbox', { name: 'From the library' });
      const zip = mmsList.locator('option', { hasText: 'holiday.mms (yours)' });
      await zip.waitFor();
      const zipNumber = (await zip.getAttribute('value')) ?? '';
      expect(zipNumber).toMatch(/^8\d{4}$/);
      await mmsList.selectOption(zipNumber);
      expect(await mms.getByLabel('Library number').inputValue()).toBe(zipNumber);
      expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(false);
      await shoot('editor-mms-library');

      // a WAP push upload, sent, is then offered by the WAP push editor (and not by the MMS one)
      const gif = join(tmp, 'sunset.gif');
      writeFileSync(gif, Uint8Array.from(TINY_GIF));
      await page.getByLabel('Content', { exact: true }).selectOption({ label: 'WAP push file' });
      const wap = page.getByRole('group', { name: 'WAP push file' });
      await wap.getByLabel('Upload a file').check();
      await wap.getByLabel('File', { exact: true }).setInputFiles(gif);
      await wap.getByText('sunset.gif, 43 bytes').waitFor();
      await sendAndWait('447700900407');
      await compose('447700900408', 'WAP push file');
      const again = page.getByRole('group', { name: 'WAP push file' });
      const wapList = again.getByRole('listbox', { name: 'From the library' });
      const pushed = wapList.locator('option', { hasText: 'sunset.gif (yours)' });
      await pushed.waitFor();
      const pushedNumber = (await pushed.getAttribute('value')) ?? '';
      expect(pushedNumber).toMatch(/^8\d{4}$/);
      expect(await wapList.locator('option', { hasText: 'holiday.mms' }).count()).toBe(0);
      await wapList.selectOption(pushedNumber);
      expect(await again.getByLabel('Library number').inputValue()).toBe(pushedNumber);
      await shoot('editor-wap-push-library');
      expect(pageErrors).toEqual([]);
    });
  },
);
