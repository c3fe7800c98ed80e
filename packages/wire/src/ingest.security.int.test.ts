import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Harness, INGEST, post, READ_ONLY, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("ingest with a read-only key", () => {
  it("a read-only key is refused with the exact SDK body", async () => {
    const t = await createTenant(h);
    const r = await post(h, INGEST, [], t.readOnlyKey);
    expect(r.status, INGEST).toBe(403);
    expect(r.text).toBe(READ_ONLY);
  });
});
