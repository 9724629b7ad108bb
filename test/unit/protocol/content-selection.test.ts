// Spec 2.4 content selection: which sendmms fields deliver a file of each type.
import { describe, expect, it } from 'vitest';
import { fileExtension, selectFileRoute } from '../../../protocol/content-selection.ts';

describe('selectFileRoute', () => {
  it('sends single images, audio, video and .jar by WAP push; images are adapted', () => {
    for (const name of ['a.jpg', 'b.GIF', 'c.png', 'd.wbmp']) {
      expect(selectFileRoute(name)).toMatchObject({ route: 'wapPush', category: 'image', adapted: true });
    }
    expect(selectFileRoute('tune.midi')).toMatchObject({
      route: 'wapPush',
      category: 'audio',
      adapted: false,
    });
    expect(selectFileRoute('voice.amr').category).toBe('audio');
    expect(selectFileRoute('clip.3gp')).toMatchObject({ route: 'wapPush', category: 'video' });
    expect(selectFileRoute('game.jar')).toMatchObject({ route: 'wapPush', category: 'java' });
    expect(selectFileRoute('game.jar').reason).toMatch(/Java application/);
  });

  it('sends MMS presentations (.mms, .zip) as MMS notifications', () => {
    for (const name of ['hello.mms', 'parts.ZIP']) {
      const s = selectFileRoute(name);
      expect(s.route).toBe('mms');
      expect(s.reason).toMatch(/MMS notification/);
    }
  });

  it('sends a .jad descriptor through si-href, pointing at its .jar', () => {
    const s = selectFileRoute('game.jad');
    expect(s).toMatchObject({ route: 'serviceIndication', category: 'descriptor' });
    expect(s.reason).toMatch(/si-href/);
    expect(s.reason).toMatch(/\.jar/);
  });

  it('reads extensions case-insensitively and treats unknown files as single WAP push files', () => {
    expect(fileExtension('A.B.PNG')).toBe('.png');
    expect(fileExtension('noext')).toBe('');
    expect(fileExtension('.hidden')).toBe('');
    expect(fileExtension('trailing.')).toBe('');
    expect(selectFileRoute('notes.txt')).toMatchObject({ route: 'wapPush', category: 'other' });
  });
});
