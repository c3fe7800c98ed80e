import { afterAll, describe, expect, it } from "vitest";
import type { Ctx } from "../context";
import { seedProject, testDeps } from "../testing/fleet";
import { getFleetOverview } from "./get-fleet-overview";
import { getProviderHealth } from "./get-provider-health";
import { listProviderInstances } from "./list-provider-instances";
import { recordBreakerReport } from "./record-breaker-report";

const deps = testDeps({ BREAKER_STALE_SECONDS: "180" });
afterAll(() => deps.db.$disconnect());

describe("fleet reads", () => {
  it("grid status per project × provider excludes stale instances and counts the rest", async () => {
    const { org, project } = await seedProject(deps, "team");
    const now = Date.now();
    const report = (provider: string, inst: string, state: "closed" | "open" | "half_open", agoS: number) =>
      recordBreakerReport(deps, {
        projectId: project.id,
        provider,
        sdkInstanceId: inst,
        state,
        failureCount: 1,
        successCount: 1,
        reportedAt: new Date(now - agoS * 1000),
      });
    await report("openai", "i1", "closed", 600);
    await report("openai", "i1", "open", 300);
    await report("openai", "i2", "closed", 10);
    await report("openai", "i3", "half_open", 10);
    await report("openai", "i4", "open", 10);
    await report("anthropic", "i1", "closed", 10);
    await report("google", "i9", "open", 10);
    // i4 and i9 went silent long ago: stale, excluded from status.
    await deps.db.breakerSnapshot.updateMany({
      where: { projectId: project.id, sdkInstanceId: { in: ["i4", "i9"] } },
      data: { receivedAt: new Date(now - 3_600_000) },
    });

    const ctx: Ctx = {
      ...deps,
      actor: { type: "user", userId: "u", isOperator: false },
      organizationId: org.id,
      role: "viewer",
    };
    const grid = await getFleetOverview(ctx, { organizationId: org.id });
    expect(grid.providers).toEqual(["anthropic", "google", "openai"]);
    const cells = grid.projects.find((p) => p.id === project.id)?.cells ?? {};
    expect(cells.openai).toMatchObject({
      status: "Down",
      summary: "1 of 3 instances Down",
      healthy: 1,
      down: 1,
      recovering: 1,
      stale: 1,
      openEpisodes: 3,
    });
    expect(Date.parse(cells.openai?.since ?? "")).toBe(now - 300_000);
    expect(cells.anthropic).toMatchObject({ status: "Healthy", summary: "1 of 1 instance Healthy" });
    expect(cells.google).toMatchObject({ status: "Unknown", stale: 1 });

    const page = await getProviderHealth(ctx, { projectId: project.id, provider: "openai", days: 2 });
    expect(page.status).toBe("Down");
    const instances = await listProviderInstances(ctx, { projectId: project.id, provider: "openai" });
    expect(instances.instances.map((i) => [i.sdkInstanceId, i.label, i.stale])).toEqual([
      ["i1", "Down", false],
      ["i2", "Healthy", false],
      ["i3", "Recovering", false],
      ["i4", "Down", true],
    ]);
    expect(page.openEpisodes.map((e) => e.sdkInstanceId).sort()).toEqual(["i1", "i3", "i4"]);
    expect(page.transitions[0]?.reportedAt).toBeDefined();
    expect(page.transitions).toHaveLength(5);
    // The open episode began 300 s ago: today's bucket, or today's and yesterday's shortly after midnight.
    expect(page.uptime.reduce((s, d) => s + d.downSeconds, 0)).toBeGreaterThanOrEqual(300);
    expect(page.uptime.every((d) => d.recoveringSeconds >= 0)).toBe(true);

    const other = await seedProject(deps, "team");
    const asOther: Ctx = { ...ctx, organizationId: other.org.id };
    await expect(
      getProviderHealth(asOther, { projectId: project.id, provider: "openai" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(getFleetOverview(asOther, { organizationId: org.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
