import { Redis, type RedisOptions } from "ioredis";

/**
 * How a connection is used, which decides its failure behaviour:
 * - `worker`: BullMQ workers and their queues. `maxRetriesPerRequest: null` is required by
 *   BullMQ's blocking commands, and the offline queue stays on so commands issued during a
 *   reconnect wait for Redis instead of failing — a worker has nobody waiting on it.
 * - `producer`: request-path code that enqueues (the SDK API, the dashboard). The offline queue
 *   is off and each command gets one retry, so an enqueue fails fast while Redis is down instead
 *   of holding an HTTP request; the Postgres outbox makes that loss harmless.
 */
export type RedisRole = "worker" | "producer";

/** Creates an ioredis connection for REDIS_URL tuned for its role (see RedisRole). */
export function createRedis(url: string, role: RedisRole, connectionName = `breakwater-${role}`): Redis {
  const options: RedisOptions =
    role === "worker"
      ? { maxRetriesPerRequest: null, enableOfflineQueue: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  return new Redis(url, {
    ...options,
    connectionName,
    // Reconnect forever with a capped backoff: Redis restarts are survivable events, not fatal.
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  });
}

/** Quits a connection, falling back to disconnect when Redis does not answer within `timeoutMs`. */
export async function closeRedis(redis: Redis, timeoutMs = 1_000): Promise<void> {
  if (redis.status === "end") return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.quit(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("quit timed out")), timeoutMs);
      }),
    ]);
  } catch {
    redis.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
