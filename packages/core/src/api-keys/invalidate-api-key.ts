import { createRedisClient, publishOn, type RedisClient, type RedisTarget } from "@breakwater/queue";
import { INVALIDATION_CHANNEL } from "../cache/invalidating-cache";

/** Name of the in-process API-key cache on the invalidation bus. */
export const API_KEY_CACHE = "api_keys";

const publishers = new Map<string, RedisClient>();

/** A process-wide publisher for contexts that carry config but no Redis client (dashboard, CLI). */
export function sharedPublisher(target: RedisTarget): RedisClient {
  const id = JSON.stringify([target.REDIS_URL, target.REDIS_CLUSTER_NODES ?? null]);
  let r = publishers.get(id);
  if (!r) {
    r = createRedisClient(target, "publisher", { connectionName: "breakwater-publisher" });
    r.on("error", () => undefined); // surfaced through the failed publish
    publishers.set(id, r);
  }
  return r;
}

/**
 * Publishes "drop `key` from cache `cache`" to every replica's invalidation bus. Uses the
 * context's Redis, else a shared connection to the configured Redis; a no-op with neither.
 */
export async function publishInvalidation(
  deps: { redis?: RedisClient; config?: RedisTarget },
  cache: string,
  key: string,
): Promise<void> {
  const redis = deps.redis ?? (deps.config ? sharedPublisher(deps.config) : undefined);
  if (!redis) return;
  await publishOn(redis, INVALIDATION_CHANNEL, `${cache}\n${key}`);
}

/**
 * Drops a key (by its SHA-256 hash) from the API-key cache of every replica, so a revoked or
 * edited key stops authenticating everywhere within one pub/sub hop.
 */
export async function invalidateApiKey(
  deps: { redis?: RedisClient; config?: RedisTarget },
  keyHash: string,
): Promise<void> {
  await publishInvalidation(deps, API_KEY_CACHE, keyHash);
}
