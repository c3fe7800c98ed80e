import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM, createTenant, type Harness, post, READ_ONLY, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("confirm with a read-only key", () => {
  it("a read-only key is refused with the exact SDK body", async () => {
    const t = await createTenant(h);
    const r = await post(h, CONFIRM, {}, t.readOnlyKey);
    expect(r.status, CONFIRM).toBe(403);
    expect(r.text).toBe(READ_ONLY);
  });
});
