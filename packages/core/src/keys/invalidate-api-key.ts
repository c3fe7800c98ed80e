import type { Redis } from "ioredis";
import { INVALIDATION_CHANNEL } from "../cache/invalidating-cache";

/** Name of the in-process API-key cache on the invalidation bus. */
export const API_KEY_CACHE = "api_keys";

/**
 * Drops a key (by its SHA-256 hash) from the API-key cache of every replica, so a revoked or
 * edited key stops authenticating everywhere within one pub/sub hop. Without Redis it is a no-op
 * (single-process deployments rely on the cache's own TTL as the safety net).
 */
export async function invalidateApiKey(deps: { redis?: Redis }, keyHash: string): Promise<void> {
  if (!deps.redis) return;
  await deps.redis.publish(INVALIDATION_CHANNEL, `${API_KEY_CACHE}\n${keyHash}`);
}
