import type { IncomingMessage, ServerResponse } from "node:http";
import { ConfigError, configSchema, drainBudgetMs, processEnv } from "@breakwater/config";
import { serviceUnavailable, type WireResult } from "./errors";
import type { WireRequest } from "./http";
import { sharedWireRuntime } from "./mount";
import { createWireServer, type WireServer, type WireServerOptions } from "./node-server";
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
): WireServer {
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

/** SHUTDOWN_TIMEOUT_MS from `env` (the dashboard server reads no other setting at start); throws naming it when bad. */
export function shutdownTimeoutMs(env: Record<string, string | undefined> = processEnv()): number {
  const raw = env.SHUTDOWN_TIMEOUT_MS;
  const parsed = configSchema.shape.SHUTDOWN_TIMEOUT_MS.safeParse(raw === "" ? undefined : raw);
  if (!parsed.success) throw new ConfigError("SHUTDOWN_TIMEOUT_MS", parsed.error.issues[0]!.message);
  return parsed.data;
}

/**
 * The dashboard server's stop (apps/web/server.mjs): the port drains first — new connections
 * refused, SDK requests and pages in flight answered, keep-alive connections closed — while the app
 * behind it (Next.js) still runs; then the app is stopped and the SDK runtime closed (flushing key
 * usage and buffered heartbeats). Resolves true when every connection ended by itself.
 * `onStopAccepting` runs once the listener is closed.
 */
export async function stopDashboardPort(
  server: WireServer,
  opts: {
    timeoutMs: number;
    stopApp: () => Promise<void>;
    closeRuntime?: () => Promise<void>;
    onStopAccepting?: () => void;
  },
): Promise<boolean> {
  const drained = await server.drain({
    timeoutMs: drainBudgetMs(opts.timeoutMs),
    onStopAccepting: opts.onStopAccepting,
  });
  await Promise.all([(opts.closeRuntime ?? closeSharedWireRuntime)(), opts.stopApp()]);
  return drained.clean;
}

export { exitOnce } from "./shutdown";
