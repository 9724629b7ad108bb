// The gateway's tiny router. Node's http server is enough for a handful of fixed paths; a framework
// would not earn its place. Handlers get the whole (size-limited) body and return a response object,
// so they stay free of stream handling and are easy to reason about.
import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayContext } from './context.ts';

/** Default body limits (issue 3): 2 MiB for form paths, 4 MiB for SOAP. */
export const FORM_BODY_LIMIT = 2 * 1024 * 1024;
export const SOAP_BODY_LIMIT = 4 * 1024 * 1024;

export interface RouteRequest {
  method: string;
  /** Path without the query string, e.g. "/sendsms5". */
  path: string;
  /** Raw query string without the leading "?" ("" when none). */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  /** The request body (empty for GET). */
  body: Uint8Array;
  remoteAddress: string;
}

export interface RouteResponse {
  /** Defaults to 200. */
  status?: number;
  /** Defaults to "text/plain; charset=utf-8". */
  contentType?: string;
  headers?: Record<string, string>;
  body: string | Uint8Array;
  /** Extra fields for this request's log line (never a PIN). */
  log?: Record<string, unknown>;
}

export type RouteHandler = (req: RouteRequest, ctx: GatewayContext) => RouteResponse | Promise<RouteResponse>;

export interface RouteOptions {
  /** Maximum body size in bytes; default FORM_BODY_LIMIT. */
  maxBodyBytes?: number;
  /** Response when the body exceeds maxBodyBytes (default: HTTP 413 text). */
  onTooLarge?: (req: RouteRequest, ctx: GatewayContext) => RouteResponse;
  /** Response when the handler throws (default: HTTP 500). Form routes answer 200 with a report. */
  onError?: (req: RouteRequest, ctx: GatewayContext, err: unknown) => RouteResponse;
  /**
   * True for an error the handler throws on bad client input (e.g. malformed form encoding): it is
   * answered by onError like any other, but logged at info with its reason, not as a handler failure.
   */
  expectedError?: (err: unknown) => boolean;
  /** Match every path that starts with `path` (e.g. "/sandbox/"). */
  prefix?: boolean;
}

export interface Route {
  methods: ReadonlyArray<string> | '*';
  path: string;
  handler: RouteHandler;
  options: RouteOptions;
}

export class Router {
  readonly routes: Route[] = [];

  /** Register `handler` for `path`; methods '*' = any method. Later registrations of the same path win. */
  add(
    methods: ReadonlyArray<string> | '*',
    path: string,
    handler: RouteHandler,
    options: RouteOptions = {},
  ): void {
    this.routes.unshift({ methods, path, handler, options });
  }

  /** The route for a path (method not checked), or undefined. */
  find(path: string): Route | undefined {
    return this.routes.find((r) => (r.options.prefix ? path.startsWith(r.path) : r.path === path));
  }

  allows(route: Route, method: string): boolean {
    return route.methods === '*' || route.methods.includes(method);
  }
}

/** Host of the request when it is a plain host[:port] (never echo arbitrary header text into the WSDL). */
export function requestBaseUrl(req: RouteRequest): string {
  const host = req.headers.host ?? '';
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
    ? `http://${host}`
    : 'http://127.0.0.1';
}
