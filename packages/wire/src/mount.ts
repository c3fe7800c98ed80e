import { getConfig } from "@breakwater/config";
import { SERVICE_UNAVAILABLE } from "./errors";
import type { RouteName } from "./handlers/router";
import { createWireRuntime, type WireRuntime } from "./runtime";

const globalForWire = globalThis as unknown as { __breakwaterWire?: Promise<WireRuntime> };

/**
 * The process's SDK API runtime, created on first request (never at import, so `next build`
 * needs no database) and kept across dev hot reloads.
 */
export function sharedWireRuntime(): Promise<WireRuntime> {
  globalForWire.__breakwaterWire ??= createWireRuntime(getConfig()).catch((err: unknown) => {
    globalForWire.__breakwaterWire = undefined; // retry on the next request
    throw err;
  });
  return globalForWire.__breakwaterWire;
}

/** A Next.js route handler serving one SDK endpoint with the shared handlers. */
export function mountWire(name: RouteName | "dispatch"): (req: Request) => Promise<Response> {
  return async (req) => {
    try {
      const runtime = await sharedWireRuntime();
      return await runtime.fetch(name)(req);
    } catch (err) {
      // Boot failed (bad configuration, database unreachable at first request): say why once per
      // failure on stderr — there is no logger without a config — and answer retryably.
      process.stderr.write(`SDK API unavailable: ${err instanceof Error ? err.message : String(err)}\n`);
      return new Response(SERVICE_UNAVAILABLE, {
        status: 503,
        headers: { "content-type": "application/json" },
      });
    }
  };
}
