import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, type Harness, keys, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("health, readiness and the OpenAPI document", () => {
  it("answers the probes", async () => {
    const health = await get(h, "/health");
    expect(health.status).toBe(200);
    expect(health.text).toBe('{"status":"ok"}');
    const ready = await get(h, "/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", postgres: "ok", redis: "ok" });
    const doc = (await get(h, "/api/v1/openapi.json")).json() as { openapi: string; paths: object };
    expect(doc.openapi).toBe("3.1.0");
    expect(keys(doc.paths)).toContain("/api/v1/budgets/check");
    expect(keys(doc.paths)).toContain("/api/v1/projects/{project_id}/providers/breaker-reports");
  });
});
