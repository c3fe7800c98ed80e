import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  breakerReport,
  createTenant,
  type Harness,
  post,
  READ_ONLY,
  startHarness,
} from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("breaker reports across tenants", () => {
  it("hides other tenants' projects and unknown ones alike", async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const report = breakerReport;
    const foreign = await post(
      h,
      breakerPath(other.projectId),
      report("2026-11-30T10:00:05.000Z", "open"),
      t.key,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe('{"detail":"Project not found"}');
    expect(await h.db.breakerSnapshot.count({ where: { projectId: other.projectId } })).toBe(0);
    expect(
      (
        await post(
          h,
          breakerPath("proj_000000000000000000000000"),
          report("2026-11-30T10:00:05Z", "open"),
          t.key,
        )
      ).status,
    ).toBe(404);
  });

  it("a read-only key is refused with the exact SDK body", async () => {
    const t = await createTenant(h);
    const r = await post(h, breakerPath(t.projectId), {}, t.readOnlyKey);
    expect(r.status, "breaker-reports").toBe(403);
    expect(r.text).toBe(READ_ONLY);
  });
});
