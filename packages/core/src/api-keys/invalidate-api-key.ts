import type { Config } from "@breakwater/config";
import { Redis } from "ioredis";
import { INVALIDATION_CHANNEL } from "../cache/invalidating-cache";

/** Name of the in-process API-key cache on the invalidation bus. */
export const API_KEY_CACHE = "api_keys";

const publishers = new Map<string, Redis>();

/** A process-wide publisher for contexts that carry config but no Redis client (dashboard, CLI). */
export function sharedPublisher(url: string): Redis {
  let r = publishers.get(url);
  if (!r) {
    r = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    r.on("error", () => undefined); // surfaced through the failed publish
    publishers.set(url, r);
  }
  return r;
}

/**
 * Publishes "drop `key` from cache `cache`" to every replica's invalidation bus. Uses the
 * context's Redis, else a shared connection to the configured Redis; a no-op with neither.
 */
export async function publishInvalidation(
  deps: { redis?: Redis; config?: Pick<Config, "REDIS_URL"> },
  cache: string,
  key: string,
): Promise<void> {
  const redis = deps.redis ?? (deps.config ? sharedPublisher(deps.config.REDIS_URL) : undefined);
  if (!redis) return;
  await redis.publish(INVALIDATION_CHANNEL, `${cache}\n${key}`);
}

/**
 * Drops a key (by its SHA-256 hash) from the API-key cache of every replica, so a revoked or
 * edited key stops authenticating everywhere within one pub/sub hop.
 */
export async function invalidateApiKey(
  deps: { redis?: Redis; config?: Pick<Config, "REDIS_URL"> },
  keyHash: string,
): Promise<void> {
  await publishInvalidation(deps, API_KEY_CACHE, keyHash);
}
