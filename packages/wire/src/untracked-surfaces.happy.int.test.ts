import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Harness, post, startHarness, surfaceReport, UNTRACKED } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("untracked surfaces", () => {
  it("stores reports once per report_id", async () => {
    const t = await createTenant(h);
    const a = surfaceReport();
    const b = surfaceReport();
    const r = await post(h, UNTRACKED, [a, b], t.key);
    expect(r.status).toBe(202);
    expect(r.text).toBe('{"accepted":2}');
    expect((await post(h, UNTRACKED, [a], t.key)).text).toBe('{"accepted":1}');
    expect(await h.db.untrackedSurfaceReport.count({ where: { projectId: t.projectId } })).toBe(2);
  });
});
