import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { parseConfig, processEnv } from "@breakwater/config";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { FixedWindowLimiter, rateLimitRedis } from "./fixed-window-limiter";

const config = parseConfig(processEnv());
const prefix = `test:fixed-window:${randomUUID()}`;
const a = rateLimitRedis(config.REDIS_URL);
const b = rateLimitRedis(config.REDIS_URL);

afterAll(async () => {
  const keys = await a.keys(`${prefix}:*`);
  if (keys.length) await a.del(...keys);
  await Promise.all([a.quit(), b.quit()]);
});

describe("FixedWindowLimiter", () => {
  it("counts one key across instances on the same Redis", async () => {
    const one = new FixedWindowLimiter(a, { prefix });
    const two = new FixedWindowLimiter(b, { prefix });
    const rule = { window: 60, max: 3 };
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await (i % 2 ? two : one).consume("k", rule));
    expect(seen.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(seen.map((d) => d.count)).toEqual([1, 2, 3, 4, 5]);
    expect(seen[3]!.retryAfter).toBeGreaterThan(55);
    expect(seen[3]!.retryAfter).toBeLessThanOrEqual(60);
    // Another key has its own count; a reset from either instance clears it for both.
    expect((await two.consume("other", rule)).count).toBe(1);
    await two.reset("k");
    expect(await one.consume("k", rule)).toMatchObject({ allowed: true, count: 1 });
  });

  it("starts a new window once the old one ends", async () => {
    const limiter = new FixedWindowLimiter(a, { prefix });
    const rule = { window: 0.3, max: 1 };
    expect((await limiter.consume("short", rule)).allowed).toBe(true);
    expect((await limiter.consume("short", rule)).allowed).toBe(false);
    await sleep(350);
    expect((await limiter.consume("short", rule)).allowed).toBe(true);
  });

  it("keeps limiting in process memory while Redis is unreachable", async () => {
    // A closed loopback port: every command fails fast.
    const down = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const limiter = new FixedWindowLimiter(down, { prefix });
    const rule = { window: 60, max: 2 };
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await limiter.consume("k", rule)).allowed);
    expect(seen).toEqual([true, true, false]);
    down.disconnect();
  });
});
