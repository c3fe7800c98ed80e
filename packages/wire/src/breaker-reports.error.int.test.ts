import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakerPath, createTenant, type Harness, post, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("breaker report refusals", () => {
  it("a report dated more than 5 minutes ahead is a 422 and stores nothing; 4 minutes ahead is accepted", async () => {
    const t = await createTenant(h);
    const report = (aheadMs: number) => ({
      provider: "openai",
      state: "open",
      failure_count: 3,
      success_count: 0,
      reported_at: new Date(Date.now() + aheadMs).toISOString(),
      sdk_instance_id: "inst-future",
    });
    const future = await post(h, breakerPath(t.projectId), report(6 * 60_000), t.key);
    expect(future.status).toBe(422);
    expect(future.json()).toEqual({
      detail: [
        {
          loc: ["body", "reported_at"],
          msg: "Value error, reported_at must not be more than 5 minutes in the future",
          type: "value_error",
        },
      ],
    });
    expect(await h.db.breakerSnapshot.count({ where: { projectId: t.projectId } })).toBe(0);
    const skewed = await post(h, breakerPath(t.projectId), report(4 * 60_000), t.key);
    expect(skewed.status).toBe(202);
    expect(await h.db.breakerSnapshot.count({ where: { projectId: t.projectId } })).toBe(1);
  });
});
