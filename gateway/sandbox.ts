// Sandbox-only routes (registered only with --sandbox): inject inbound messages as if a phone had sent
// them, and list the PDUs the simulated network received, so tests and the app's virtual phone can
// show what a handset gets. Plus /content/<token>, where handsets fetch WAP push files and MMS (always on).
import { decodeForm } from '../protocol/form.ts';
import { LIMITS } from '../protocol/limits.ts';
import type { GatewayContext } from './context.ts';
import type { RouteRequest, RouteResponse, Router } from './http.ts';
import type { NetworkSimulator } from './network/simulator.ts';
import { listLibrary } from './library/library.ts';
import { getAccount } from './accounts.ts';
import { SERVABLE_CONTENT_TYPES } from './library/mms.ts';

/**
 * Issue 17: the sandbox routes put messages in an inbox and read what phones got, so only a client
 * on this machine may call them: a loopback Host (DNS rebinding names another) and no Origin (a
 * web page's cross-site form post or fetch always has one). Null when the request may pass.
 */
export function sandboxRefusal(req: RouteRequest): RouteResponse | null {
  const host = (req.headers.host ?? '').toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  if (!/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(name))
    return json({ error: 'the sandbox routes answer only a loopback Host' }, 403);
  if (req.headers.origin !== undefined)
    return json({ error: 'the sandbox routes do not answer web pages (Origin)' }, 403);
  return null;
}

/** `handler` behind sandboxRefusal. */
function local(handler: (req: RouteRequest) => RouteResponse): (req: RouteRequest) => RouteResponse {
  return (req) => sandboxRefusal(req) ?? handler(req);
}

function json(value: unknown, status = 200): RouteResponse {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(value) };
}

function formOf(req: RouteRequest): Map<string, string> {
  const out = new Map<string, string>();
  const add = (text: string) => {
    for (const [k, v] of decodeForm(text, LIMITS.maxFormFields)) if (!out.has(k)) out.set(k, v);
  };
  if (req.rawQuery) add(req.rawQuery);
  if (req.body.byteLength) add(new TextDecoder('utf-8', { fatal: true }).decode(req.body).trim());
  return out;
}

export function registerSandboxRoutes(router: Router, ctx: GatewayContext, network: NetworkSimulator): void {
  router.add(
    ['POST'],
    '/sandbox/inbound',
    local((req) => {
      let f: Map<string, string>;
      try {
        f = formOf(req);
      } catch (err) {
        return json({ error: `malformed form: ${(err as Error).message}` }, 400);
      }
      const sendTo = f.get('SendTo')?.trim();
      const replyTo = f.get('ReplyTo')?.trim();
      const message = f.get('Message');
      if (!sendTo || !replyTo || message === undefined || message === '')
        return json(
          { error: 'SendTo (an account number), ReplyTo (the phone) and Message are required' },
          400,
        );
      const result = network.injectInbound({ sendTo, replyTo, message, source: 'sandbox' });
      if (!result.ok) return json({ error: result.reason }, 404);
      return {
        ...json({ messageIdentifier: result.messageIdentifier }),
        log: { inbound: result.messageIdentifier },
      };
    }),
  );

  router.add(
    ['GET'],
    '/sandbox/outbound',
    local((req) => {
      const q = new URLSearchParams(req.rawQuery);
      const num = (name: string) => {
        const v = q.get(name);
        return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
      };
      const afterId = num('after');
      const limit = num('limit');
      const messageIdentifier = q.get('messageIdentifier') ?? undefined;
      const recipient = q.get('recipient') ?? undefined;
      const username = q.get('username');
      let accountId: number | undefined;
      if (username) {
        const account = getAccount(ctx.db, username);
        if (!account) return json([]);
        accountId = account.id;
      }
      const rows = network.outbound({
        ...(afterId !== undefined ? { afterId } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(messageIdentifier ? { messageIdentifier } : {}),
        ...(recipient ? { recipient } : {}),
        ...(accountId !== undefined ? { accountId } : {}),
      });
      return json(
        rows.map((r) => ({
          id: r.id,
          MessageIdentifier: r.messageIdentifier,
          recipient: r.recipient,
          part: r.part,
          parts: r.parts,
          dcs: r.dcs,
          pid: r.pid,
          udh: r.udh,
          userData: r.userData,
          pdu: r.pdu,
          summary: r.summary,
          createdAt: r.createdAt,
        })),
      );
    }),
  );

  // The public library, plus the files of ?username= (its own uploads) when one is named; an
  // unknown username gets the public library only.
  router.add(
    ['GET'],
    '/sandbox/library',
    local((req) => {
      const username = new URLSearchParams(req.rawQuery).get('username');
      const account = username ? getAccount(ctx.db, username) : null;
      return json(
        listLibrary(ctx.db, account?.id ?? null).map((f) => ({
          number: f.number,
          kind: f.kind,
          name: f.name,
          contentType: f.contentType,
          size: f.size,
          owner: f.ownerAccountId === null ? 'public' : 'own',
        })),
      );
    }),
  );

  router.add(
    ['GET'],
    '/sandbox/receipts',
    local((req) => {
      const id = new URLSearchParams(req.rawQuery).get('messageIdentifier');
      if (!id) return json({ error: 'messageIdentifier is required' }, 400);
      return json(network.receiptsFor(id));
    }),
  );
}

/** GET /content/<token>: the (adapted) file of a WAP push or MMS, as a handset would fetch it. */
export function registerContentRoute(router: Router, ctx: GatewayContext): void {
  router.add(
    ['GET'],
    '/content/',
    (req) => {
      const token = req.path.slice('/content/'.length);
      if (!/^[0-9a-f]{24}$/.test(token)) return { status: 404, body: 'Not found\n' };
      const row = ctx.db
        .prepare('SELECT content_type, bytes FROM delivered_content WHERE token = ?')
        .get(token) as { content_type: string; bytes: Uint8Array } | undefined;
      if (!row) return { status: 404, body: 'Not found\n' };
      // Issue 17: the sender chose the type: only WAP/MMS media types are served as such, never
      // run as a page (CSP sandbox), never sniffed, and offered as a download.
      const type = row.content_type.split(';')[0]?.trim().toLowerCase() ?? '';
      return {
        contentType: SERVABLE_CONTENT_TYPES.has(type) ? row.content_type : 'application/octet-stream',
        headers: {
          'content-security-policy': 'sandbox',
          'x-content-type-options': 'nosniff',
          'content-disposition': 'attachment',
        },
        body: new Uint8Array(row.bytes),
      };
    },
    { prefix: true },
  );
}

/**
 * Points an account's push URL (receipts, inbound DeliverMessage) at `url`, or clears it (null): the
 * app that runs the sandbox in-process points it at its own push receiver.
 */
export function setPushUrl(ctx: GatewayContext, username: string, url: string | null): void {
  ctx.db.prepare('UPDATE accounts SET push_url = ? WHERE username = ?').run(url, username);
}
