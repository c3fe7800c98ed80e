import type { Config } from "@breakwater/config";
import {
  createDeps,
  createKeyUsageTracker,
  createLogger,
  type Deps,
  FixedWindowLimiter,
  rateLimitRedis,
} from "@breakwater/core";
import type { Logger } from "pino";
import type { ManageRequest, ManageResponse } from "./http";
import { openApiDocument } from "./openapi";
import { createPipeline, MANAGE_BASE } from "./pipeline";
import { MANAGE_ROUTES } from "./routes";

export interface ManageRuntime {
  handle(req: ManageRequest): Promise<ManageResponse>;
  deps: Deps;
  /** Writes pending last-used times of management keys now (they are written every 5 s anyway). */
  flushUsage(): Promise<void>;
  /** Writes pending last-used times, then closes the connections it opened. */
  close(): Promise<void>;
}

/**
 * The management API of one process: core's dependencies, the per-key rate limiter (Redis
 * counters shared by every replica, the same limiter the sign-in limits use), the last-used
 * tracker of management keys, and the request pipeline over the route table.
 */
export function createManageRuntime(
  config: Config,
  opts: { logger?: Logger; rateLimit?: { window: number; max: number } } = {},
): ManageRuntime {
  const base = createDeps(config, "manage-api");
  const deps: Deps = opts.logger
    ? { ...base, log: opts.logger }
    : { ...base, log: createLogger(config, "manage-api") };
  const redis = rateLimitRedis(config);
  redis.on("error", () => undefined); // the limiter logs and falls back to memory
  const limiter = new FixedWindowLimiter(redis, { prefix: "bw:manage-rl", log: deps.log });
  const usage = createKeyUsageTracker({ db: deps.db, log: deps.log, table: "management_keys" });
  const document = JSON.stringify(openApiDocument());
  const handle = createPipeline({
    deps,
    routes: MANAGE_ROUTES,
    limiter,
    rateLimit: opts.rateLimit ?? { window: 60, max: config.MANAGE_API_RATE_LIMIT },
    usage,
    open: {
      [`${MANAGE_BASE}/openapi.json`]: () => ({
        status: 200,
        headers: { "content-type": "application/json", "cache-control": "public, max-age=300" },
        body: document,
      }),
    },
  });
  return {
    handle,
    deps,
    flushUsage: () => usage.flush(),
    async close() {
      await usage.stop();
      redis.disconnect();
    },
  };
}
