// gateway-rich's part of the server, called by server.ts: the network simulator, the content library
// seed, SOAP (/sendsms5, /sendsms2, ?wsdl), /webservices/http/sendmms, /content/<token> and, with
// --sandbox, /sandbox/*.
import type { GatewayContext, NetworkLike } from './context.ts';
import type { Router } from './http.ts';
import { NetworkSimulator } from './network/simulator.ts';
import { seedPublicLibrary } from './library/library.ts';
import { registerSoapRoutes } from './soap/endpoint.ts';
import { registerSendMmsRoute } from './routes/sendmms.ts';
import { registerContentRoute, registerSandboxRoutes } from './sandbox.ts';

export function createNetwork(ctx: GatewayContext): NetworkLike {
  seedPublicLibrary(ctx.db);
  const network = new NetworkSimulator(ctx);
  // messages queued and receipts left pending by a previous run (or the other instance) go out now
  network.drainQueue();
  network.deliverDue();
  return network;
}

export function registerRichRoutes(router: Router, ctx: GatewayContext): void {
  const network =
    ctx.network instanceof NetworkSimulator ? ctx.network : (createNetwork(ctx) as NetworkSimulator);
  if (ctx.network !== network) ctx.network = network;
  registerSendMmsRoute(router);
  registerSoapRoutes(router, ctx, network);
  registerContentRoute(router, ctx);
  if (ctx.sandbox) registerSandboxRoutes(router, ctx, network);
}
