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
});
