// Issue 23, item 1: form decoding is linear in the body and refuses more than a set number of
// fields; the decoder of long components says where a body is broken exactly as the short path does.
import { describe, expect, it } from 'vitest';
import { FormDecodeError, FormFieldLimitError, decodeForm, fieldBeyond } from '../../../protocol/form.ts';
import { buildRequestEnvelope, parseRequestEnvelopeInSlices } from '../../../protocol/soap/envelope.ts';
import { SOAP_PARSE_SLICE_BYTES } from '../../../protocol/soap/envelope.ts';

function refusal(body: string, max?: number): FormDecodeError {
  try {
    decodeForm(body, max);
  } catch (err) {
    if (err instanceof FormDecodeError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('decodeForm against hostile bodies', () => {
  it('refuses the field after the limit, saying where it starts', () => {
    const err = refusal('a&b=1&&c&d', 3);
    expect(err).toBeInstanceOf(FormFieldLimitError);
    expect(err.position).toBe(9);
    expect(decodeForm('a&b=1&&c', 3).size).toBe(3);
  });

  it('counts the fields of a raw body before decoding it, agreeing with decodeForm', () => {
    const bytes = (t: string) => new TextEncoder().encode(t);
    expect(fieldBeyond(bytes('a&b=1&&c&d'), 3)).toBe(9);
    expect(fieldBeyond(bytes('a&b=1&&c&'), 3)).toBe(-1);
    expect(fieldBeyond(bytes('&&&'), 0)).toBe(-1);
    expect(fieldBeyond(bytes('a&'.repeat(1_000_000)), 1000)).toBe(2000);
  });

  it('takes time in proportion to the body, not its square (a million bare tags)', () => {
    // the former indexOf('=') from each piece ran to the end of the body: 11 s for this one
    const t = performance.now();
    const fields = decodeForm('a&'.repeat(1_000_000));
    expect(fields.size).toBe(1_000_000);
    expect(performance.now() - t).toBeLessThan(3000);
  });

  it('decodes long components like short ones and places their errors alike', () => {
    const long = 'x'.repeat(5000);
    expect(decodeForm(`m=${long}+%C3%A9é😀`).get('m')).toBe(`${long} éé😀`);
    expect(decodeForm(`m=a+b%20c`).get('m')).toBe('a b c');
    for (const tail of ['%4', '%C3', '%FF', '%ED%A0%80']) {
      const short = refusal(`m=é${tail}`).position;
      const longErr = refusal(`m=é${long}${tail}`).position;
      expect(longErr - short, tail).toBe(long.length);
    }
    expect(refusal(`m=${long}é%E9`).message).toMatch(/invalid UTF-8 at position 5003/);
  });
});

describe('parseRequestEnvelopeInSlices', () => {
  it('yields to other work between slices of a large envelope and reads it as the one-shot parser does', async () => {
    const xml = buildRequestEnvelope('AvailableCredit', {
      Username: 'u'.repeat(SOAP_PARSE_SLICE_BYTES * 3),
      PIN: 'p',
    });
    let turns = 0;
    const parsed = await parseRequestEnvelopeInSlices(new TextEncoder().encode(xml), {}, async () => {
      turns++;
    });
    expect(parsed.operation).toBe('AvailableCredit');
    expect(parsed.request).toEqual({ Username: 'u'.repeat(SOAP_PARSE_SLICE_BYTES * 3), PIN: 'p' });
    expect(turns).toBe(Math.ceil(xml.length / SOAP_PARSE_SLICE_BYTES) - 1);
  });
});
