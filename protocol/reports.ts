/**
 * Report codes (spec 7.1, 7.2, 4.1 format 0 and 5.4).
 *
 * The spec names a meaning for only a few codes. For the error codes it lists without a meaning
 * (3, 5, 6, 7, 8, 11, 12, 13, 14, 20, 76, 98) the user text is "Gateway error N" and the server's
 * Text is always shown with it. The REPORT names for those codes are the reference gateway's own
 * choice (which error it reports with which listed code); a client must not rely on them.
 */

export type ReportGroup = 'accepted' | 'error' | 'account' | 'unknown';

export interface ReportCode {
  code: string;
  group: ReportGroup;
  /** What the spec says about the code ("not shown" when it says nothing). */
  meaning: string;
  /** Short text for a user. */
  userText: string;
}

const UNDOCUMENTED = 'error code a client must handle; meaning not shown in the spec';

export const REPORT_CODES: ReadonlyArray<ReportCode> = [
  { code: '-3', group: 'accepted', meaning: 'accepted', userText: 'Accepted' },
  { code: '-2', group: 'accepted', meaning: 'accepted and queued', userText: 'Accepted and queued' },
  {
    code: '99',
    group: 'accepted',
    meaning: 'listed as an acceptance code; meaning not shown',
    userText: 'Accepted (code 99)',
  },
  {
    code: '-1',
    group: 'error',
    meaning: 'used with an invalid login on account queries (MessageIdentifier=-1); other uses not shown',
    userText: 'Request refused (code -1)',
  },
  { code: '2', group: 'error', meaning: 'invalid login', userText: 'Invalid login (wrong Username or PIN)' },
  { code: '15', group: 'error', meaning: 'out of credit', userText: 'Out of credit' },
  ...['3', '5', '6', '7', '8', '11', '12', '13', '14', '20', '76', '98'].map((code): ReportCode => ({
    code,
    group: 'error',
    meaning: UNDOCUMENTED,
    userText: `Gateway error ${code}`,
  })),
  { code: '0', group: 'account', meaning: 'account management: success', userText: 'Success' },
  {
    code: '171',
    group: 'error',
    meaning: 'format 0 of sendsms: Invalid login',
    userText: 'Invalid login (wrong Username or PIN)',
  },
];

/**
 * Named codes. The first group is the spec's; the second is the reference gateway's use of the
 * listed-but-unexplained error codes.
 */
export const REPORT = {
  accepted: '-3',
  queued: '-2',
  accepted99: '99',
  invalidLoginQuery: '-1',
  invalidLogin: '2',
  outOfCredit: '15',
  success: '0',
  format0InvalidLogin: '171',
  // Reference gateway choices among the codes without a documented meaning:
  syntaxError: '3',
  invalidNumber: '5',
  invalidReplyTo: '6',
  notPermitted: '7',
  contentNotFound: '8',
  tooManyRecipients: '11',
  invalidSchedule: '12',
  invalidContent: '13',
  messageTooLong: '14',
  duplicate: '20',
  notDelivered: '76',
  serverError: '98',
} as const;
export type ReportName = keyof typeof REPORT;

/**
 * Report codes after which the rest of a send is not requested: every further request of the same
 * account would fail the same way (invalid login, out of credit).
 */
export const SEND_STOP_REPORTS: ReadonlySet<string> = new Set([
  REPORT.invalidLogin,
  REPORT.invalidLoginQuery,
  REPORT.outOfCredit,
]);

/** Deprecated format one bare codes (spec 7.2). */
export const DEPRECATED_CODES = { accepted: '01', syntaxOrCredit: '97', invalidLogin: '99' } as const;
export type DeprecatedCode = (typeof DEPRECATED_CODES)[keyof typeof DEPRECATED_CODES];

export const DEPRECATED_REPORT_CODES: ReadonlyArray<ReportCode> = [
  { code: '01', group: 'accepted', meaning: 'message accepted, will now be processed', userText: 'Accepted' },
  {
    code: '97',
    group: 'error',
    meaning: 'parameter syntax error (for example wrong encoding) or out of credit',
    userText: 'Syntax error or out of credit',
  },
  {
    code: '99',
    group: 'error',
    meaning: 'invalid Username or PIN',
    userText: 'Invalid login (wrong Username or PIN)',
  },
];

/** The format 0 line for wrong credentials: "171 - Invalid login" (spec 4.1, 5.4). */
export const FORMAT0_INVALID_LOGIN = { code: '171', text: 'Invalid login' } as const;

const BY_CODE = new Map(REPORT_CODES.map((r) => [r.code, r]));
const DEPRECATED_BY_CODE = new Map(DEPRECATED_REPORT_CODES.map((r) => [r.code, r]));

/** Canonical text of a code: trimmed; numbers written in decimal. */
export function normalizeCode(code: string | number): string {
  return typeof code === 'number' ? String(code) : code.trim();
}

/** The table entry of a code, or undefined for a code the spec does not list. */
export function reportInfo(code: string | number): ReportCode | undefined {
  return BY_CODE.get(normalizeCode(code));
}

export function classifyReport(code: string | number): ReportGroup {
  return reportInfo(code)?.group ?? 'unknown';
}

export function isAccepted(code: string | number): boolean {
  return classifyReport(code) === 'accepted';
}

export function isError(code: string | number): boolean {
  return classifyReport(code) === 'error';
}

function withServerText(base: string, serverText: string | undefined): string {
  const text = serverText?.trim() ?? '';
  if (text === '' || base.toLowerCase().includes(text.toLowerCase())) return base;
  return `${base}: ${text}`;
}

/**
 * Text for a user. A known meaning gives its text (server text added when it says more); a code
 * without a known meaning gives "Gateway error N" and the server text is always kept.
 */
export function describeReport(code: string | number, serverText?: string): string {
  const c = normalizeCode(code);
  const info = BY_CODE.get(c);
  return withServerText(info?.userText ?? `Gateway error ${c}`, serverText);
}

/** Deprecated format one code (01, 97, 99) → group. */
export function classifyDeprecated(code: string): ReportGroup {
  return DEPRECATED_BY_CODE.get(code.trim())?.group ?? 'unknown';
}

/** Deprecated format one code → user text; unknown codes → "Gateway error N". */
export function describeDeprecated(code: string): string {
  const c = code.trim();
  return DEPRECATED_BY_CODE.get(c)?.userText ?? `Gateway error ${c}`;
}
