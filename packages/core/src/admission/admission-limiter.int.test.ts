import { setTimeout as sleep } from "node:timers/promises";
import { parseConfig } from "@breakwater/config";
import { createRedisClient } from "@breakwater/queue";
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
});
