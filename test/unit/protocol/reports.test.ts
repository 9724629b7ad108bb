import { describe, expect, it } from 'vitest';
import {
  DEPRECATED_CODES,
  FORMAT0_INVALID_LOGIN,
  REPORT,
  REPORT_CODES,
  classifyDeprecated,
  classifyReport,
  describeDeprecated,
  describeReport,
  isAccepted,
  isError,
} from '../../../protocol/reports.ts';

describe('report code table (spec 7.1)', () => {
  it('holds every listed code once, with its group', () => {
    const codes = REPORT_CODES.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    const listed: Record<string, string> = {
      '-3': 'accepted',
      '-2': 'accepted',
      '99': 'accepted',
      '-1': 'error',
      '2': 'error',
      '15': 'error',
      '0': 'account',
      '171': 'error',
    };
    for (const c of ['3', '5', '6', '7', '8', '11', '12', '13', '14', '20', '76', '98']) listed[c] = 'error';
    expect(Object.fromEntries(REPORT_CODES.map((r) => [r.code, r.group]))).toEqual(listed);
  });

  it('gives every code a user text', () => {
    for (const r of REPORT_CODES) expect(r.userText.length).toBeGreaterThan(3);
  });

  it('maps every named REPORT to a listed code', () => {
    for (const code of Object.values(REPORT)) expect(classifyReport(code)).not.toBe('unknown');
    expect(REPORT.accepted).toBe('-3');
    expect(REPORT.queued).toBe('-2');
    expect(REPORT.invalidLogin).toBe('2');
    expect(REPORT.outOfCredit).toBe('15');
    expect(REPORT.success).toBe('0');
  });
});

describe('classifyReport', () => {
  it('accepts strings with blanks and numbers', () => {
    expect(classifyReport(-3)).toBe('accepted');
    expect(classifyReport(' -2 ')).toBe('accepted');
    expect(classifyReport('99')).toBe('accepted');
    expect(classifyReport(15)).toBe('error');
    expect(classifyReport('0')).toBe('account');
  });

  it('classifies an unlisted code as unknown, neither accepted nor error', () => {
    expect(classifyReport('444')).toBe('unknown');
    expect(isAccepted('444')).toBe(false);
    expect(isError('444')).toBe(false);
  });

  it('isAccepted / isError', () => {
    expect(isAccepted('-3')).toBe(true);
    expect(isAccepted('2')).toBe(false);
    expect(isError('2')).toBe(true);
    expect(isError('-2')).toBe(false);
    expect(isError('171')).toBe(true);
  });
});

describe('describeReport', () => {
  it('says what the known codes mean', () => {
    expect(describeReport('15')).toBe('Out of credit');
    expect(describeReport('2')).toMatch(/^Invalid login/);
    expect(describeReport(-2)).toBe('Accepted and queued');
  });

  it('adds the server text when it says more, and not twice when it says the same', () => {
    expect(describeReport('15', 'Top up at example.com')).toBe('Out of credit: Top up at example.com');
    expect(describeReport('15', 'out of credit')).toBe('Out of credit');
  });

  it('codes without a documented meaning: "Gateway error N" with the server text kept', () => {
    expect(describeReport('76')).toBe('Gateway error 76');
    expect(describeReport('3', 'SendTo is required')).toBe('Gateway error 3: SendTo is required');
  });

  it('never drops the server text of an unknown code', () => {
    expect(describeReport('444', 'Carrier says no')).toBe('Gateway error 444: Carrier says no');
    expect(describeReport('444')).toBe('Gateway error 444');
  });
});

describe('deprecated codes and format 0 invalid login (spec 7.2, 4.1)', () => {
  it('names 01, 97 and 99', () => {
    expect(DEPRECATED_CODES).toEqual({ accepted: '01', syntaxOrCredit: '97', invalidLogin: '99' });
    expect(classifyDeprecated('01')).toBe('accepted');
    expect(classifyDeprecated('97\n')).toBe('error');
    expect(classifyDeprecated('99')).toBe('error');
    expect(classifyDeprecated('42')).toBe('unknown');
    expect(describeDeprecated('97')).toBe('Syntax error or out of credit');
    expect(describeDeprecated('42')).toBe('Gateway error 42');
  });

  it('171 - Invalid login', () => {
    expect(FORMAT0_INVALID_LOGIN).toEqual({ code: '171', text: 'Invalid login' });
  });
});
