// The bound of one page of GET /sandbox/outbound: protocol/sandbox-routes.ts holds it, since the
// app's argument check (main/services/validate-args.ts) names it too.
export { OUTBOUND_PAGE_MAX } from '../../protocol/sandbox-routes.ts';
