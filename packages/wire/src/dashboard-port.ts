import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { serviceUnavailable, type WireResult } from "./errors";
import type { WireRequest } from "./http";
import { sharedWireRuntime } from "./mount";
import { createWireServer, type WireServerOptions } from "./node-server";
import type { WireRuntime } from "./runtime";

export interface DashboardServerOptions extends Omit<WireServerOptions, "fallback"> {
  /** The SDK API runtime; by default the process's shared one, built on the first SDK request. */
  runtime?: () => Promise<WireRuntime>;
}

/**
 * The dashboard's single port (apps/web/server.mjs): the SDK API's paths are answered by the very
 * dispatch the lean SDK API server runs, on a node:http server with the lean server's bounds and
 * keep-alive — no Next.js between the socket and the handler — and every other request goes to
 * `app` (Next.js). The runtime (Postgres pool, Redis clients, caches) is built on the first SDK
 * request, never at start, so the dashboard starts without a reachable database; while it cannot
 * be built, SDK requests get a retryable 503 and the next request tries again.
 */
export function createDashboardServer(
  app: (msg: IncomingMessage, res: ServerResponse) => void,
  opts: DashboardServerOptions = {},
): Server {
  const build = opts.runtime ?? sharedWireRuntime;
  let runtime: WireRuntime | null = null;
  const booting = (req: WireRequest): Promise<WireResult> =>
    build().then(
      (rt) => {
        runtime = rt;
        return rt.dispatch(req);
      },
      (err: unknown) => {
        process.stderr.write(`SDK API unavailable: ${err instanceof Error ? err.message : String(err)}\n`);
        return serviceUnavailable();
      },
    );
  const dispatch = (req: WireRequest): Promise<WireResult> =>
    runtime ? runtime.dispatch(req) : booting(req);
  return createWireServer(dispatch, { ...opts, fallback: app });
}

/** The shared runtime's close, for a stopping dashboard: flushes counters and closes its connections. */
export async function closeSharedWireRuntime(): Promise<void> {
  const g = globalThis as unknown as { __breakwaterWire?: Promise<WireRuntime> };
  const pending = g.__breakwaterWire;
  if (!pending) return;
  g.__breakwaterWire = undefined;
  await pending.then((rt) => rt.close()).catch(() => undefined);
}
