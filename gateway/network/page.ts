// The bound of one page of GET /sandbox/outbound, alone in its module: the app's argument check
// (main/services/validate-args.ts) imports it without the gateway's code, which since issue 15 runs
// on the sandbox's worker thread only (the main bundle would otherwise carry the network's modules).

/**
 * The most PDUs one outbound() page (GET /sandbox/outbound) returns; a larger limit is cut to it.
 * The app's sandbox.outbound refuses a larger limit with this bound (main/services/validate-args.ts).
 */
export const OUTBOUND_PAGE_MAX = 5000;
