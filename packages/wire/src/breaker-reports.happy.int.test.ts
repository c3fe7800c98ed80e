import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  breakerReport,
  createTenant,
  type Harness,
  post,
  startHarness,
} from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("breaker reports", () => {
  it("accepts the key's project and keeps the newest report", async () => {
    const t = await createTenant(h);
    const report = breakerReport;
    const ok = await post(h, breakerPath(t.projectId), report("2026-11-30T10:00:05.000Z", "open"), t.key);
    expect(ok.status).toBe(202);
    expect(ok.text).toBe('{"accepted":true}');
    const late = await post(h, breakerPath(t.projectId), report("2026-11-30T10:00:01.000Z", "closed"), t.key);
    expect(late.status).toBe(202);
    const snap = await h.db.breakerSnapshot.findUniqueOrThrow({
      where: {
        projectId_provider_sdkInstanceId: {
          projectId: t.projectId,
          provider: "openai",
          sdkInstanceId: "inst-1",
        },
      },
    });
    expect(snap.state).toBe("open");
  });

  it("a heartbeat (unchanged state) is answered at once and its last-seen time reaches Postgres within the flush window", async () => {
    const t = await createTenant(h);
    const snap = () =>
      h.db.breakerSnapshot.findUniqueOrThrow({
        where: {
          projectId_provider_sdkInstanceId: {
            projectId: t.projectId,
            provider: "openai",
            sdkInstanceId: "inst-1",
          },
        },
      });
    const first = new Date(Date.now() - 10_000).toISOString();
    expect((await post(h, breakerPath(t.projectId), breakerReport(first, "closed"), t.key)).status).toBe(202);
    const stored = await snap();
    await new Promise((r) => setTimeout(r, 100));
    const heartbeats = h.runtime.ctx.breakers.counts.heartbeat;
    const next = new Date(Date.now() - 5_000).toISOString();
    const r = await post(h, breakerPath(t.projectId), breakerReport(next, "closed"), t.key);
    expect(r.status).toBe(202);
    expect(r.text).toBe('{"accepted":true}');
    expect(h.runtime.ctx.breakers.counts.heartbeat).toBe(heartbeats + 1);
    await expect.poll(async () => (await snap()).reportedAt.toISOString(), { timeout: 5_000 }).toBe(next);
    const after = await snap();
    expect(after.receivedAt.getTime()).toBeGreaterThan(stored.receivedAt.getTime());
    expect(after.stateSince).toEqual(stored.stateSince);
    expect(await h.db.breakerTransition.count({ where: { projectId: t.projectId } })).toBe(1);
  });
});
