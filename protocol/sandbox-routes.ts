// Not the spec: the reference gateway's own sandbox routes (GET /sandbox/outbound, GET
// /sandbox/library; docs/GATEWAY.md), which the app's virtual phone and media picker read
// (main/services/sandbox-feed.ts, library.ts). Both sides name these, so they live on the floor both
// stand on (issue 27: the app imported them from gateway/, an arrow across the two sides).

/**
 * The most PDUs one outbound() page (GET /sandbox/outbound) returns; a larger limit is cut to it.
 * The app's sandbox.outbound refuses a larger limit with this bound (main/services/validate-args.ts).
 */
export const OUTBOUND_PAGE_MAX = 5000;

/** The kinds of file in the gateway's content library, as GET /sandbox/library names them. */
export type SandboxLibraryKind = 'picture' | 'group-graphic' | 'operator-logo' | 'ringtone' | 'mms' | 'wap';
