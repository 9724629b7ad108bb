import { describe, expect, it } from 'vitest';
import {
  FORM_CONTENT_TYPE,
  FormDecodeError,
  FormFields,
  decodeForm,
  decodeFormComponent,
  encodeForm,
  encodeFormComponent,
  encodeFormComponentSlow,
} from '../../../protocol/form.ts';

function decodeError(body: string): FormDecodeError {
  try {
    decodeForm(body);
  } catch (err) {
    if (err instanceof FormDecodeError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(body)} to be refused`);
}

describe('encodeForm', () => {
  it('percent-encodes every UTF-8 octet of non-ASCII text with uppercase hex, space as %20', () => {
    expect(encodeForm([['Message', 'Grüße €']])).toBe('Message=Gr%C3%BC%C3%9Fe%20%E2%82%AC');
  });

  it('leaves only unreserved characters as they are', () => {
    expect(encodeFormComponent('AZaz09-_.~')).toBe('AZaz09-_.~');
    expect(encodeFormComponent("&=+,:;/?#%*!'()@ ")).toBe(
      '%26%3D%2B%2C%3A%3B%2F%3F%23%25%2A%21%27%28%29%40%20',
    );
    expect(encodeFormComponent('line1\nline2')).toBe('line1%0Aline2');
  });

  it('encodes a character outside the BMP as its four octets', () => {
    expect(encodeFormComponent('😀')).toBe('%F0%9F%98%80');
  });

  it('writes a lone surrogate as U+FFFD instead of throwing', () => {
    expect(encodeFormComponent('a\uD800b')).toBe('a%EF%BF%BDb');
  });

  it('fast and octet-by-octet encoders agree on every BMP character and a few astral ones', () => {
    let all = '';
    for (let cp = 0; cp < 0xd800; cp++) all += String.fromCharCode(cp);
    for (let cp = 0xe000; cp <= 0xffff; cp++) all += String.fromCharCode(cp);
    all += '😀𝄞\u{10FFFF}';
    expect(encodeFormComponent(all)).toBe(encodeFormComponentSlow(all));
    expect(decodeFormComponent(encodeFormComponent(all))).toBe(all);
  });

  it('handles a multi-megabyte hex upload quickly', () => {
    const hex = 'AB'.repeat(1_000_000);
    const started = performance.now();
    const f = decodeForm(encodeForm({ MMSNotificationFileData1: hex, Message: 'Grüße € '.repeat(50_000) }));
    expect(f.get('MMSNotificationFileData1')).toBe(hex);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps pair order and repeated tags, one continuous string', () => {
    const body = encodeForm([
      ['Username', 'user.1'],
      ['X', '1'],
      ['PIN', 'abc'],
      ['X', '2'],
    ]);
    expect(body).toBe('Username=user.1&X=1&PIN=abc&X=2');
    expect(body).not.toMatch(/[\r\n]/);
  });

  it('takes a record: undefined skipped, numbers in decimal, booleans as 1/0, empty values kept', () => {
    expect(
      encodeForm({
        Username: 'u',
        PIN: undefined,
        SendTimeDelay: 15,
        DisableRepurposing: true,
        AvailableCredit: '',
      }),
    ).toBe('Username=u&SendTimeDelay=15&DisableRepurposing=1&AvailableCredit=');
  });

  it('accepts a FormFields as input', () => {
    const f = new FormFields([
      ['a', 'x y'],
      ['a', 'z'],
    ]);
    expect(encodeForm(f)).toBe('a=x%20y&a=z');
  });

  it('names the spec content type', () => {
    expect(FORM_CONTENT_TYPE).toBe('application/x-www-form-urlencoded; charset=utf-8');
  });
});

describe('decodeForm', () => {
  it('round-trips non-ASCII, reserved characters, repeated and unknown tags in order', () => {
    const pairs: Array<[string, string]> = [
      ['Username', 'user.1'],
      ['Message', 'Grüße € & 100% = fun, ok? 😀\nnext line'],
      ['Unknown-Tag', 'kept'],
      ['SendTo', '447700900123'],
      ['SendTo', '447700900124'],
      ['Empty', ''],
    ];
    const f = decodeForm(encodeForm(pairs));
    expect(f.entries).toEqual(pairs);
    expect(f.get('SendTo')).toBe('447700900123');
    expect(f.getAll('SendTo')).toEqual(['447700900123', '447700900124']);
    expect(f.has('Unknown-Tag')).toBe(true);
    expect(f.names()).toEqual(['Username', 'Message', 'Unknown-Tag', 'SendTo', 'Empty']);
    expect(f.toRecord()).toEqual({
      Username: 'user.1',
      Message: 'Grüße € & 100% = fun, ok? 😀\nnext line',
      'Unknown-Tag': 'kept',
      SendTo: '447700900123',
      Empty: '',
    });
  });

  it("reads '+' as a space and accepts lowercase hex", () => {
    expect(decodeForm('Message=hello+world%2c%e2%82%ac').get('Message')).toBe('hello world,€');
  });

  it('keeps `AvailableCredit=` and a bare `AvailableCredit` as empty values', () => {
    expect(decodeForm('Username=u&PIN=p&AvailableCredit=').entries).toContainEqual(['AvailableCredit', '']);
    const bare = decodeForm('Username=u&PIN=p&AvailableCredit');
    expect(bare.has('AvailableCredit')).toBe(true);
    expect(bare.get('AvailableCredit')).toBe('');
  });

  it('keeps "=" inside a value and skips empty pieces', () => {
    const f = decodeForm('a=b=c&&d=1&');
    expect(f.entries).toEqual([
      ['a', 'b=c'],
      ['d', '1'],
    ]);
  });

  it('decodes an empty body to no fields', () => {
    expect(decodeForm('').entries).toEqual([]);
  });

  it('refuses malformed percent-encoding and says where', () => {
    expect(decodeError('a=1&b=%G1').position).toBe(6);
    expect(decodeError('a=%4').position).toBe(2);
    expect(decodeError('a=100%').position).toBe(5);
    expect(decodeError('a=%').message).toMatch(/percent/);
  });

  it('refuses invalid UTF-8 and says where', () => {
    // Lone continuation byte, truncated sequence, overlong '/', UTF-16 surrogate, Latin-1 'ü'.
    expect(decodeError('x=ok&m=%80').position).toBe(7);
    expect(decodeError('m=ab%E2%82').position).toBe(4);
    expect(decodeError('m=%C0%AF').position).toBe(2);
    expect(decodeError('m=%ED%A0%80').position).toBe(2);
    expect(decodeError('Message=Gr%FC%DFe').message).toMatch(/UTF-8/);
  });

  it('agrees with the platform UTF-8 decoder on random octet sequences', () => {
    // Deterministic xorshift so a failure can be reproduced.
    let seed = 0x2545f491;
    const next = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 0x100000000;
    };
    const strict = new TextDecoder('utf-8', { fatal: true });
    // Octets weighted towards the interesting UTF-8 boundaries.
    const pool = [
      0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5,
      0xff,
    ];
    for (let round = 0; round < 3000; round++) {
      const bytes = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
        next() < 0.7 ? pool[Math.floor(next() * pool.length)]! : Math.floor(next() * 256),
      );
      const body = `m=${bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`;
      let expected: string | undefined;
      try {
        expected = strict.decode(new Uint8Array(bytes));
      } catch {
        expected = undefined;
      }
      if (expected === undefined) expect(() => decodeForm(body), body).toThrow(FormDecodeError);
      else expect(decodeForm(body).get('m'), body).toBe(expected);
    }
  });

  it('is a real Error subclass', () => {
    const err = decodeError('a=%ZZ');
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('FormDecodeError');
  });

  it('decodes a single component', () => {
    expect(decodeFormComponent('ok%2C%20sent')).toBe('ok, sent');
  });
});

describe('FormFields', () => {
  it('is iterable in order and case-sensitive on names', () => {
    const f = new FormFields([
      ['PIN', '1'],
      ['pin', '2'],
    ]);
    expect([...f]).toEqual([
      ['PIN', '1'],
      ['pin', '2'],
    ]);
    expect(f.get('PIN')).toBe('1');
    expect(f.get('Pin')).toBeUndefined();
    expect(f.getAll('none')).toEqual([]);
    expect(f.size).toBe(2);
  });
});
