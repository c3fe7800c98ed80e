import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK, checkBody, event, get, type Harness, INGEST, post, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("routing", () => {
  it("unknown paths are 404 and GET on a write endpoint is 405", async () => {
    expect((await get(h, "/api/v1/nope")).status).toBe(404);
    expect((await get(h, CHECK)).status).toBe(405);
  });
});

describe("backends down", () => {
  it("Postgres unreachable on a cold cache: 503s (never 500s) and readiness says which backend", async () => {
    const down = await startHarness({ DATABASE_URL: "postgresql://postgres@127.0.0.1:3498/breakwater_test" });
    try {
      const check = await post(down, CHECK, checkBody(), `sk_proj_${"b".repeat(64)}`);
      expect(check.status).toBe(503);
      expect(check.text).toBe('{"detail":"Budget backend temporarily unavailable; retry"}');
      const ingest = await post(down, INGEST, [event()], `sk_proj_${"b".repeat(64)}`);
      expect(ingest.status).toBe(503);
      const ready = await get(down, "/health/ready");
      expect(ready.status).toBe(503);
      expect(ready.json()).toEqual({ status: "unavailable", postgres: "unavailable", redis: "ok" });
    } finally {
      await down.close().catch(() => undefined);
    }
  });
});
