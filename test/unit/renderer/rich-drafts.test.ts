// The pure draft builders behind the vCard, vCalendar, WAP push, SI, MMS and PDU editors: fields as
// the gateway wants them, every blocking problem from protocol/, and previews that decode back.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../preload/api.ts';
import {
  decodePdusToContent,
  hexToBytes,
  parseVCalendar,
  parseVCard,
  buildPortUdh,
  bytesToHex,
} from '../../../protocol/smart/index.ts';
import { packSeptets, encodeGsm7 } from '../../../protocol/sms.ts';
import { fileToPicked, mmsDraft, wapPushDraft } from '../../../renderer/views/media/file-drafts.ts';
import type { MmsForm, PickedFile } from '../../../renderer/views/media/file-drafts.ts';
import {
  contactToVCard,
  draftProblems,
  generateSiId,
  localToUtcIso,
  pduDraft,
  sentence,
  siDraft,
  unpackGsm7Hex,
  vcalendarDraft,
  vcardDraft,
} from '../../../renderer/views/media/rich-drafts.ts';

const contact: Contact = {
  id: 1,
  name: 'Jürgen van der Berg',
  number: '491701234567',
  numberTyped: '+49 170 1234567',
  email: 'jb@example.org',
  notes: 'Met at the fair',
  createdAt: 0,
  updatedAt: 0,
};

const file = (name: string, bytes = [1, 2, 3]): PickedFile => ({
  name,
  hex: bytesToHex(Uint8Array.from(bytes)),
  size: bytes.length,
});

describe('sentence and draftProblems', () => {
  it('turns protocol messages into sentences and keeps only content problems', () => {
    expect(sentence('vCard must hold x')).toBe('VCard must hold x.');
    expect(sentence('Done.')).toBe('Done.');
    expect(draftProblems('vcard', { vCard: 'BEGIN:VCARD\r\nEND:VCARD' })).toEqual([]);
    expect(draftProblems('vcard', {})).toEqual([expect.stringMatching(/One kind of content is required/)]);
  });
});

describe('vcardDraft', () => {
  it('asks for a contact first', () => {
    const d = vcardDraft(null, { includeEmail: true, includeNotes: true });
    expect(d.problems).toEqual(['Choose a contact from the address book.']);
    expect(d.fields).toEqual({});
  });

  it('writes the contact as vCard 2.1 with a +number, quoted-printable for non-ASCII', () => {
    const d = vcardDraft(contact, { includeEmail: true, includeNotes: false });
    expect(d.problems).toEqual([]);
    expect(d.kind).toBe('vcard');
    expect(d.preview).toBe(d.fields.vCard);
    expect(d.preview).toMatch(/^BEGIN:VCARD\r\nVERSION:2\.1\r\n/);
    expect(d.preview).toContain('TEL;CELL:+491701234567');
    expect(d.preview).toContain('QUOTED-PRINTABLE');
    expect(d.preview).not.toContain('NOTE');
    const back = parseVCard(d.preview);
    expect(back.name).toEqual({ family: 'Berg', given: 'Jürgen van der' });
    expect(back.formattedName).toBe('Jürgen van der Berg');
    expect(back.emails[0]?.address).toBe('jb@example.org');
    // smart messages go 128 octets per concatenated part
    expect(d.summary).toMatch(/^vCard “Jürgen van der Berg”, 2\d\d bytes, 2 SMS$/);
  });

  it('adds the note on request; a one-word name is the given name', () => {
    const card = contactToVCard({ ...contact, name: 'Madonna' }, { includeEmail: false, includeNotes: true });
    expect(card.name).toEqual({ family: '', given: 'Madonna' });
    expect(card.note).toBe('Met at the fair');
    expect(card.emails).toEqual([]);
  });

  it('counts the SMS of a long card', () => {
    const d = vcardDraft({ ...contact, notes: 'x'.repeat(400) }, { includeEmail: true, includeNotes: true });
    expect(d.problems).toEqual([]);
    expect(d.summary).toMatch(/, [4-9] SMS$/);
  });
});

describe('vcalendarDraft', () => {
  const form = {
    title: 'Planning',
    start: '2026-12-01T10:00',
    end: '2026-12-01T11:30',
    location: 'Room 4',
    reminderMinutes: '15',
  };

  it('sends the local times as vCalendar UTC, with the reminder before the start', () => {
    const d = vcalendarDraft(form);
    expect(d.problems).toEqual([]);
    const start = localToUtcIso(form.start)!;
    expect(start).toBe(`${new Date(form.start).toISOString().slice(0, 19)}Z`);
    const [ev] = parseVCalendar(d.fields.vCal!).events;
    expect(ev).toMatchObject({ summary: 'Planning', location: 'Room 4', start });
    expect(ev?.end).toBe(localToUtcIso(form.end));
    expect(Date.parse(start) - Date.parse(ev!.alarm!)).toBe(15 * 60_000);
    expect(d.preview).toContain('VERSION:1.0');
    expect(d.summary).toMatch(/^vCalendar “Planning”, 1\d\d bytes, 2 SMS$/);
  });

  it('refuses a missing title, an end before the start and a bad reminder, each said', () => {
    const d = vcalendarDraft({ ...form, title: ' ', end: '2026-12-01T09:00', reminderMinutes: 'soon' });
    expect(d.problems).toEqual([
      'Give the event a title.',
      'The event must end after it starts.',
      expect.stringMatching(/reminder must be 0 to 43200 minutes .*soon/),
    ]);
    expect(d.fields).toEqual({});
    expect(vcalendarDraft({ ...form, start: '' }).problems).toEqual(['Choose when the event starts.']);
  });

  it('makes end, location and reminder optional', () => {
    const d = vcalendarDraft({ ...form, end: '', location: '', reminderMinutes: '' });
    expect(d.problems).toEqual([]);
    const [ev] = parseVCalendar(d.fields.vCal!).events;
    expect(ev?.end).toBeUndefined();
    expect(ev?.alarm).toBeUndefined();
    expect(ev?.location).toBeUndefined();
  });
});

describe('wapPushDraft', () => {
  it('takes a library number 80000–89999 only', () => {
    const ok = wapPushDraft({ source: 'library', library: '80001', file: null, message: 'New picture' });
    expect(ok).toMatchObject({
      kind: 'wapPush',
      text: 'New picture',
      fields: { MMSFileWAP: '80001' },
      problems: [],
    });
    // the picker's sentences (protocol's parseLibraryNumber and inLibraryRange), and nothing is sent
    expect(wapPushDraft({ source: 'library', library: '', file: null, message: '' }).problems).toEqual([
      'Choose a library item or type its number.',
    ]);
    const far = wapPushDraft({ source: 'library', library: '20000', file: null, message: '' });
    expect(far.problems).toEqual([
      'Library number 20000 is outside 80000–89999, the range of this kind of content.',
    ]);
    expect(far.fields).toEqual({});
    expect(wapPushDraft({ source: 'library', library: '8000', file: null, message: '' }).problems).toEqual([
      'A library number has 5 digits (got “8000”).',
    ]);
    // a good number still goes through validateRequest: the Message limit of spec 8
    expect(
      wapPushDraft({ source: 'library', library: '89999', file: null, message: 'm'.repeat(51) }).problems,
    ).toEqual(['Message on MMS or WAP push must be at most 50 characters (got 51).']);
  });

  it('uploads a file as name + hex data, with the 50-character name and Message limits', () => {
    const d = wapPushDraft({ source: 'file', library: '', file: file('logo.png'), message: '' });
    expect(d.fields).toEqual({ WAPPushFileName1: 'logo.png', WAPPushFileData1: '010203' });
    expect(d.problems).toEqual([]);
    expect(d.summary).toBe('WAP push file “logo.png”, 3 bytes');
    const long = `${'n'.repeat(47)}.png`;
    expect(wapPushDraft({ source: 'file', library: '', file: file(long), message: '' }).problems).toEqual([
      'WAPPushFileName1 must be at most 50 characters (got 51).',
    ]);
    expect(
      wapPushDraft({ source: 'file', library: '', file: file('a.png'), message: 'm'.repeat(51) }).problems,
    ).toEqual(['Message on MMS or WAP push must be at most 50 characters (got 51).']);
  });

  it('sends a ContentType only when one is given, checked as a MIME type', () => {
    const typed = wapPushDraft({
      source: 'file',
      library: '',
      file: file('clip.bin'),
      message: '',
      contentType: ' video/3gpp ',
    });
    expect(typed.fields.ContentType).toBe('video/3gpp');
    expect(typed.problems).toEqual([]);
    expect(
      wapPushDraft({ source: 'file', library: '', file: file('a.png'), message: '', contentType: '' }).fields
        .ContentType,
    ).toBeUndefined();
    expect(
      wapPushDraft({ source: 'file', library: '', file: file('a.png'), message: '', contentType: 'png' })
        .problems,
    ).toEqual(['ContentType must be a MIME type such as image/png.']);
  });

  it('sends .mms/.zip to the MMS notification and .jad to si-href instead', () => {
    const mms = wapPushDraft({ source: 'file', library: '', file: file('show.mms'), message: '' });
    expect(mms.problems[0]).toMatch(
      /^Show\.mms: \.mms is an MMS presentation: send it as an MMS notification/,
    );
    const jad = wapPushDraft({ source: 'file', library: '', file: file('game.jad'), message: '' });
    expect(jad.problems[0]).toMatch(/through si-href/);
    expect(wapPushDraft({ source: 'file', library: '', file: null, message: '' }).problems).toEqual([
      'Choose a file to upload.',
    ]);
  });
});

describe('mmsDraft', () => {
  const base: MmsForm = {
    source: 'library',
    library: '80000',
    file: null,
    subject: 'Hello',
    disableRepurposing: false,
    disableWalledGardenRule: false,
    addSmil: '0',
  };

  it('sends a library MMS with only the advanced flags that are set', () => {
    expect(mmsDraft(base)).toMatchObject({
      kind: 'mms',
      text: 'Hello',
      fields: { MMSFileMMS: '80000' },
      problems: [],
    });
    const adv = mmsDraft({ ...base, disableRepurposing: true, disableWalledGardenRule: true, addSmil: '2' });
    expect(adv.fields).toEqual({
      MMSFileMMS: '80000',
      DisableRepurposing: '1',
      DisableWalledGardenRule: '1',
      AddSMIL: '2',
    });
    expect(mmsDraft({ ...base, library: '79999' }).problems).toEqual([
      'Library number 79999 is outside 80000–89999, the range of this kind of content.',
    ]);
    expect(mmsDraft({ ...base, library: '' }).problems).toEqual([
      'Choose a library item or type its number.',
    ]);
  });

  it('lists the parts of a .zip and refuses one that is unreadable or has only a SMIL', () => {
    const zip = zipSync({
      'slides/hello.txt': strToU8('Hello'),
      'pic.png': new Uint8Array(20),
      'layout.smil': strToU8('<smil/>'),
      '.DS_Store': new Uint8Array(1),
    });
    const picked = fileToPicked('show.zip', zip);
    expect(picked.zip).toEqual({
      parts: [
        { name: 'hello.txt', size: 5, role: 'text' },
        { name: 'pic.png', size: 20, role: 'image' },
        { name: 'layout.smil', size: 7, role: 'SMIL layout' },
      ],
    });
    expect(mmsDraft({ ...base, source: 'file', file: picked }).problems).toEqual([]);
    const bad = fileToPicked('broken.zip', Uint8Array.of(1, 2, 3));
    expect(mmsDraft({ ...base, source: 'file', file: bad }).problems).toEqual([
      expect.stringMatching(/^Broken\.zip is not a readable ZIP file: /),
    ]);
    const smilOnly = fileToPicked('empty.zip', zipSync({ 'a.smil': strToU8('<smil/>') }));
    expect(mmsDraft({ ...base, source: 'file', file: smilOnly }).problems).toEqual([
      'empty.zip has no MMS components (text, image, audio or video).',
    ]);
    expect(fileToPicked('photo.png', new Uint8Array(3)).zip).toBeUndefined();
  });

  it('uploads a .zip or .mms; a single image belongs in a WAP push', () => {
    const zip = mmsDraft({ ...base, source: 'file', file: file('parts.zip') });
    expect(zip.fields).toEqual({ MMSNotificationFileName1: 'parts.zip', MMSNotificationFileData1: '010203' });
    expect(zip.problems).toEqual([]);
    const png = mmsDraft({ ...base, source: 'file', file: file('photo.png') });
    expect(png.problems[0]).toMatch(/single image: sent by WAP push/);
    expect(png.problems).toContain('MMSNotificationFileName1 must end in .mms or .zip (got "photo.png").');
  });
});

describe('siDraft', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const form = {
    href: 'http://www.example.com/offer',
    siId: 'offer-1',
    created: '',
    expires: '',
    action: 'signal-high',
    content: 'New offer',
  };

  it('generates distinct si-ids', () => {
    const a = generateSiId(now);
    expect(a).toMatch(/^si-[0-9a-z]+-[0-9a-f]{8}$/);
    expect(generateSiId(now)).not.toBe(a);
  });

  it('sends the fields by their spec names and counts the SMS', () => {
    const d = siDraft({ ...form, created: '2026-11-22T13:00', expires: '2026-11-29T13:00' }, now);
    expect(d.problems).toEqual([]);
    expect(d.fields).toEqual({
      'si-href': 'http://www.example.com/offer',
      'si-id': 'offer-1',
      'si-created': new Date('2026-11-22T13:00').toISOString().slice(0, 19),
      'si-expires': new Date('2026-11-29T13:00').toISOString().slice(0, 19),
      'si-action': 'signal-high',
      'si-content': 'New offer',
    });
    expect(d.summary).toBe('Service indication http://www.example.com/offer, 1 SMS');
    expect(d.warnings).toEqual([]);
  });

  it('warns without an si-id and refuses a missing link, a bad URI and a past expiry', () => {
    expect(siDraft({ ...form, siId: '' }, now).warnings[0]).toMatch(/discarded silently/);
    expect(siDraft({ ...form, href: '' }, now).problems).toEqual([
      'Enter the link (si-href) the indication points at.',
    ]);
    expect(siDraft({ ...form, href: 'not a uri' }, now).problems).toEqual([
      'Si-href must be an absolute URI (got "not a uri").',
    ]);
    const past = siDraft({ ...form, expires: '2026-11-01T10:00' }, now);
    expect(past.problems).toEqual([
      'si-expires is in the past: the handset would discard the indication at once.',
    ]);
    const order = siDraft({ ...form, created: '2026-12-10T10:00', expires: '2026-12-01T10:00' }, now);
    expect(order.problems).toEqual(['si-expires must be after si-created.']);
  });
});

describe('pduDraft', () => {
  it('builds the port UDH PDU from hex user data and explains it', () => {
    const udh = bytesToHex(buildPortUdh(9204, 0));
    const d = pduDraft({ dcs: 'F5', pid: '00', udh, dataMode: 'hex', userData: '41 42 43', text: '' });
    expect(d.problems).toEqual([]);
    expect(d.fields).toEqual({
      SmsSubmitPduDataCodingScheme: 'F5',
      SmsSubmitPduProtocolIdentifier: '00',
      SmsSubmitPduUserDataHeader: '06050423F40000',
      SmsSubmitPduUserData: '414243',
    });
    expect(d.explanation.find((f) => f.field === 'IEI 0x05')?.meaning).toMatch(/to 9204 \(vCard\)/);
    expect(d.explanation.find((f) => f.field === 'TP-UD')?.meaning).toBe('3 octets of data');
    const [msg] = decodePdusToContent([hexToBytes(d.pduHex)]);
    expect(msg?.content).toMatchObject({ kind: 'vcard', vcard: 'ABC' });
  });

  it('places text as Message and reads GSM-7 hex as packed septets', () => {
    const t = pduDraft({
      dcs: '00',
      pid: '00',
      udh: '06050413880000',
      dataMode: 'text',
      userData: '',
      text: 'Hi',
    });
    expect(t.problems).toEqual([]);
    expect(t.text).toBe('Hi');
    expect(t.fields.SmsSubmitPduUserData).toBeUndefined();
    const packed = bytesToHex(packSeptets(encodeGsm7('hellohello')!));
    expect(packed).toBe('E8329BFD4697D9EC37');
    expect(unpackGsm7Hex(hexToBytes(packed)).length).toBe(10);
    const h = pduDraft({
      dcs: '00',
      pid: '00',
      udh: '06050413880000',
      dataMode: 'hex',
      userData: packed,
      text: '',
    });
    expect(h.explanation.find((f) => f.field === 'TP-UD')?.meaning).toBe('text "hellohello"');
  });

  it('refuses bad hex, a UDH whose length octet lies, and user data too long for one SMS', () => {
    expect(
      pduDraft({ dcs: 'G1', pid: '00', udh: '00', dataMode: 'text', userData: '', text: 'x' }).problems,
    ).toEqual(['SmsSubmitPduDataCodingScheme must be hex digits in pairs (got "G1").']);
    expect(
      pduDraft({ dcs: '04', pid: '00', udh: '0605', dataMode: 'text', userData: '', text: 'x' }).problems,
    ).toEqual(['SmsSubmitPduUserDataHeader declares 6 octets after its length octet but has 1.']);
    const long = pduDraft({
      dcs: '04',
      pid: '00',
      udh: '00',
      dataMode: 'hex',
      userData: 'AA'.repeat(141),
      text: '',
    });
    expect(long.problems).toEqual(['The PDU cannot be built: user data of 142 octets exceeds 140.']);
  });
});
