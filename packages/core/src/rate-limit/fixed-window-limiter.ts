import { createRedisClient, type RedisClient, type RedisTarget } from "@breakwater/queue";
import type { Logger } from "pino";
import { luaScript, runScript } from "../budgets/lua";

/** At most `max` hits per `window` seconds. */
export interface RateLimitRule {
  window: number;
  max: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Whole seconds until the window ends (at least 1 when refused, 0 when allowed). */
  retryAfter: number;
  /** Whole seconds until the window ends and the count starts again (for RateLimit-Reset). */
  resetSeconds: number;
}

// One round trip, atomic: count the hit, start the window on the first one, report what is left of it.
// A key that lost its expiry (PTTL -1) gets one again, so a counter can never stick forever.
const CONSUME_SCRIPT = luaScript(
  "rate-limit-consume",
  `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`,
);

const MEMORY_MAX_KEYS = 10_000;

/**
 * Fixed-window counters in Redis, shared by every replica that uses the same Redis and prefix.
 * While Redis is unreachable (or when none is given) the counters fall back to this process's
 * memory, so a Redis outage weakens the limit to per-replica instead of switching it off.
 */
export class FixedWindowLimiter {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly redis: RedisClient | undefined,
    private readonly opts: { prefix: string; log?: Logger },
  ) {}

  async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const windowMs = Math.max(1, Math.round(rule.window * 1000));
    let count: number;
    let ttlMs: number;
    try {
      if (!this.redis) throw new Error("no Redis");
      const reply = (await runScript(this.redis, CONSUME_SCRIPT, [this.redisKey(key)], [windowMs])) as [
        number,
        number,
      ];
      [count, ttlMs] = reply;
    } catch (err) {
      if (this.redis) this.opts.log?.warn({ err: String(err) }, "rate limiter falls back to process memory");
      [count, ttlMs] = this.consumeInMemory(key, windowMs);
    }
    const allowed = count <= rule.max;
    const resetSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
    return { allowed, count, retryAfter: allowed ? 0 : resetSeconds, resetSeconds };
  }

  /** Forgets a key's count (e.g. an account's failures after a successful sign-in). */
  async reset(key: string): Promise<void> {
    this.memory.delete(key);
    try {
      if (this.redis) await this.redis.del(this.redisKey(key));
    } catch (err) {
      this.opts.log?.warn({ err: String(err) }, "rate limiter could not reset a key");
    }
  }

  private redisKey(key: string): string {
    return `${this.opts.prefix}:${key}`;
  }

  private consumeInMemory(key: string, windowMs: number): [number, number] {
    const now = Date.now();
    let entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.memory.size >= MEMORY_MAX_KEYS) this.prune(now);
      entry = { count: 0, resetAt: now + windowMs };
      this.memory.set(key, entry);
    }
    entry.count += 1;
    return [entry.count, entry.resetAt - now];
  }

  private prune(now: number): void {
    for (const [k, v] of this.memory) if (v.resetAt <= now) this.memory.delete(k);
    // Still full: drop the oldest insertions (Map keeps insertion order).
    for (const k of this.memory.keys()) {
      if (this.memory.size < MEMORY_MAX_KEYS) break;
      this.memory.delete(k);
    }
  }
}

/**
 * A Redis connection for rate-limit counters on a request path: a command waits for a
 * (re)connecting Redis at most a second and is retried once, so an outage costs a request that
 * second (then the memory fallback) instead of hanging it, and the first requests after start do
 * not miss the counters while the connection opens.
 */
export function rateLimitRedis(target: RedisTarget | string): RedisClient {
  return createRedisClient(typeof target === "string" ? { REDIS_URL: target } : target, "rate-limit", {
    connectionName: "breakwater-rate-limit",
  });
}
