import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK, checkBody, createTenant, type Harness, post, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("budget check refusals", () => {
  it("validation problems are FastAPI 422s; invalid JSON is json_invalid", async () => {
    const t = await createTenant(h);
    const bad = await post(h, CHECK, checkBody({ surprise: true }), t.key);
    expect(bad.status).toBe(422);
    expect(bad.json()).toEqual({
      detail: [{ loc: ["body", "surprise"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }],
    });
    const invalid = await post(h, CHECK, "{not json", t.key, { raw: true });
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toEqual({
      detail: [{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }],
    });
    const huge = await post(h, CHECK, "1e400", t.key, { raw: true });
    expect(huge.status).toBe(422);
  });
});

describe("backends down", () => {
  it("the check answers 503 fast with the documented body", async () => {
    const t = await createTenant(h);
    const down = await startHarness({ REDIS_URL: "redis://127.0.0.1:3499/1" });
    try {
      const started = Date.now();
      const r = await post(down, CHECK, checkBody(), t.key);
      expect(r.status).toBe(503);
      expect(r.text).toBe('{"detail":"Budget backend temporarily unavailable; retry"}');
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await down.close();
    }
  });
});
