import { Redis, type RedisOptions } from "ioredis";
import { DomainError } from "../errors";

/**
 * Per-command deadline of the budget client. The SDK gives a check 1 s and counts a 503 against
 * its control-plane breaker, so the deadline sits well inside that second without turning a
 * brief CPU stall into a spurious 503. (Refused connections fail at once, not after this.)
 */
export const BUDGET_REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis client for the budget hot path: no offline queue and no per-request retries, so while
 * Redis is down commands fail at once instead of piling up; a short command timeout bounds a hung
 * server. Reconnects in the background. Wait for `ready` at boot before serving checks.
 */
export function createBudgetRedis(url: string, opts: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: BUDGET_REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(50 * times, 1_000),
    ...opts,
  });
}

/** The domain error every budget operation raises when Redis cannot answer. */
export function budgetUnavailable(cause?: unknown): DomainError {
  const err = new DomainError("BUDGET_UNAVAILABLE", "Budget backend temporarily unavailable; retry");
  if (cause !== undefined) (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/**
 * Runs Redis work with a deadline and maps any Redis failure to BUDGET_UNAVAILABLE. A client that
 * queues offline or has no command timeout of its own gets a timer, so even a misconfigured client
 * cannot make a check hang past `timeoutMs`.
 */
export async function withRedis<T>(
  redis: Redis,
  work: () => Promise<T>,
  timeoutMs = BUDGET_REDIS_COMMAND_TIMEOUT_MS,
): Promise<T> {
  if (redis.status === "end" || redis.status === "close") throw budgetUnavailable();
  const selfBounded = redis.options.enableOfflineQueue === false && (redis.options.commandTimeout ?? 0) > 0;
  try {
    if (selfBounded) return await work();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(budgetUnavailable(new Error("budget Redis deadline"))), timeoutMs);
    });
    try {
      return await Promise.race([work(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw budgetUnavailable(err);
  }
}
