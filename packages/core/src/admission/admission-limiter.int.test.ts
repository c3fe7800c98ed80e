import { setTimeout as sleep } from "node:timers/promises";
import { parseConfig } from "@breakwater/config";
import { createRedisClient, whenReady } from "@breakwater/queue";
import { afterAll, describe, expect, it } from "vitest";
import { createAdmissionLimiter } from "./admission-limiter";

const config = parseConfig(process.env);
const redis = createRedisClient(config, "publisher");
afterAll(() => redis.quit());

describe("admission limiter across replicas", () => {
  it("replicas share one window through Redis, so the cluster stays near the project's rate", async () => {
    const prefix = `test:adm:${Math.random().toString(36).slice(2)}:`;
    const a = createAdmissionLimiter({ redis, keyPrefix: prefix, syncMs: 5 });
    const b = createAdmissionLimiter({ redis, keyPrefix: prefix, syncMs: 5 });
    // Start just after a second boundary so the whole exercise stays in one window.
    if (Date.now() % 1000 > 100) await sleep(1000 - (Date.now() % 1000) + 5);
    let admitted = 0;
    for (let i = 0; i < 40; i++) {
      if (a.admit("proj_shared", 20).ok) admitted++;
      await a.sync();
      await b.sync();
      if (b.admit("proj_shared", 20).ok) admitted++;
      await b.sync();
      await a.sync();
    }
    // Alone, each replica would admit 20; together they are held to the shared 20.
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(22);
    await a.stop();
    await b.stop();
  });

  it("holds each project's limit across two runtimes when one sync carries many projects (one slot each on a cluster)", async () => {
    const prefix = `test:adm:${Math.random().toString(36).slice(2)}:`;
    // Two runtimes, each with its own Redis client, as two SDK API servers have.
    const ra = createRedisClient(config, "producer");
    const rb = createRedisClient(config, "producer");
    expect(await whenReady(ra, 5_000)).toBe(true);
    expect(await whenReady(rb, 5_000)).toBe(true);
    const a = createAdmissionLimiter({ redis: ra, keyPrefix: prefix, syncMs: 5 });
    const b = createAdmissionLimiter({ redis: rb, keyPrefix: prefix, syncMs: 5 });
    const projects = Array.from({ length: 8 }, (_, i) => `proj_multi${i}`);
    if (Date.now() % 1000 > 100) await sleep(1000 - (Date.now() % 1000) + 5);
    const admitted = new Map(projects.map((p) => [p, 0]));
    for (let i = 0; i < 15; i++) {
      for (const p of projects) if (a.admit(p, 10).ok) admitted.set(p, admitted.get(p)! + 1);
      await a.sync();
      await b.sync();
      for (const p of projects) if (b.admit(p, 10).ok) admitted.set(p, admitted.get(p)! + 1);
      await b.sync();
      await a.sync();
    }
    // Alone, each runtime would admit 10 of every project; shared, the total stays near 10.
    for (const p of projects) {
      expect(admitted.get(p), p).toBeGreaterThanOrEqual(10);
      expect(admitted.get(p), p).toBeLessThanOrEqual(11);
    }
    await a.stop();
    await b.stop();
    await ra.quit();
    await rb.quit();
  });
});
