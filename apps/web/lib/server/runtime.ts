import { type Auth, createAuth, createAuthHandler, createAuthLimiter } from "@breakwater/api";
import { type Config, getConfig } from "@breakwater/config";
import { createDeps, type Deps, FleetLiveHub, rateLimitRedis } from "@breakwater/core";

interface Runtime {
  config: Config;
  deps: Deps;
  auth: Auth;
  /** better-auth's handler behind the client-address resolution and the per-account sign-in limit. */
  authHandler: (request: Request) => Promise<Response>;
  /** One `bw:fleet` subscription for every live fleet page of this process (connects on first use). */
  fleetLive: FleetLiveHub;
}

const globalForRuntime = globalThis as unknown as {
  __breakwaterWeb?: Runtime;
  /** Set by apps/web/server.mjs, which writes the socket peer into every request. */
  __breakwaterPeerHeader?: boolean;
};

/**
 * The web process's config, clients and auth instance, built on first use (never at import, so
 * `next build` needs no secrets) and kept across dev hot reloads.
 */
export function getRuntime(): Runtime {
  if (!globalForRuntime.__breakwaterWeb) {
    const config = getConfig();
    const deps = createDeps(config, "web");
    // Sign-in counters live in Redis so that every dashboard replica sees the same counts.
    const limiter = createAuthLimiter(deps, rateLimitRedis(config));
    const auth = createAuth(deps, { limiter });
    const authHandler = createAuthHandler({
      handle: auth.handler,
      limiter,
      trustedHops: config.TRUST_PROXY,
      peerHeaderTrusted: () => globalForRuntime.__breakwaterPeerHeader === true,
    });
    const fleetLive = new FleetLiveHub({ redis: config, log: deps.log });
    globalForRuntime.__breakwaterWeb = { config, deps, auth, authHandler, fleetLive };
  }
  return globalForRuntime.__breakwaterWeb;
}
