import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Harness, post, startHarness, surfaceReport, UNTRACKED } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("untracked surface refusals", () => {
  it("enforces the batch rules and stores nothing of a refused batch", async () => {
    const t = await createTenant(h);
    const a = surfaceReport();
    const b = surfaceReport();
    expect((await post(h, UNTRACKED, [a, b], t.key)).status).toBe(202);
    expect(
      (
        await post(
          h,
          UNTRACKED,
          Array.from({ length: 101 }, () => surfaceReport()),
          t.key,
        )
      ).status,
    ).toBe(400);
    expect((await post(h, UNTRACKED, [a, { ...a, report_id: crypto.randomUUID() }], t.key)).status).toBe(400);
    expect(
      (
        await post(
          h,
          UNTRACKED,
          [{ ...a, report_id: crypto.randomUUID(), last_seen_at: "2026-08-31T00:00:00Z" }],
          t.key,
        )
      ).status,
    ).toBe(422);
    const tooBig = await post(h, UNTRACKED, `[${" ".repeat(300 * 1024)}]`, t.key, { raw: true });
    expect(tooBig.status).toBe(413);
    expect(await h.db.untrackedSurfaceReport.count({ where: { projectId: t.projectId } })).toBe(2);
  });
});
