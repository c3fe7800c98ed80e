import { type Auth, createAuth } from "@breakwater/api";
import { type Config, getConfig } from "@breakwater/config";
import { createDeps, type Deps, FleetLiveHub } from "@breakwater/core";

interface Runtime {
  config: Config;
  deps: Deps;
  auth: Auth;
  /** One `bw:fleet` subscription for every live fleet page of this process (connects on first use). */
  fleetLive: FleetLiveHub;
}

const globalForRuntime = globalThis as unknown as { __breakwaterWeb?: Runtime };

/**
 * The web process's config, clients and auth instance, built on first use (never at import, so
 * `next build` needs no secrets) and kept across dev hot reloads.
 */
export function getRuntime(): Runtime {
  if (!globalForRuntime.__breakwaterWeb) {
    const config = getConfig();
    const deps = createDeps(config, "web");
    globalForRuntime.__breakwaterWeb = {
      config,
      deps,
      auth: createAuth(deps),
      fleetLive: new FleetLiveHub({ redisUrl: config.REDIS_URL, log: deps.log }),
    };
  }
  return globalForRuntime.__breakwaterWeb;
}
