import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createBudgetRedis } from "../budgets/budget-redis";
import { runScript } from "../budgets/lua";
import type { Ctx } from "../context";
import { seedProject, testDeps } from "../testing/fleet";
import { BreakerReportIntake } from "./breaker-heartbeats";
import type { CircuitState } from "./breaker-state";
import { liveCounts } from "./fleet-counts";
import { BREAKER_FORGET_SCRIPT, fleetKeys, snapshotField } from "./fleet-redis";
import { aggregateRows, fleetRows, getFleetOverview, type Row } from "./get-fleet-overview";
import { getProviderHealth } from "./get-provider-health";

const STALE_S = 60;
const base = testDeps({ BREAKER_STALE_SECONDS: String(STALE_S) });
const redis = createBudgetRedis(base.config);
const pool = new pg.Pool({ connectionString: base.config.DATABASE_URL, max: 4 });
const deps = { ...base, redis, pg: pool };

afterAll(async () => {
  redis.disconnect();
  await pool.end();
  await base.db.$disconnect();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settled(projectId: string) {
  for (let i = 0; i < 100; i++) {
    if ((await redis.hlen(fleetKeys(projectId).busy)) === 0) return;
    await sleep(20);
  }
  throw new Error("busy marks never lifted");
}

const totals = async (projectId: string) =>
  Object.fromEntries(
    (await base.db.breakerSnapshotTotal.findMany({ where: { projectId } })).map((t) => [t.provider, t.total]),
  );

describe("fleet counts from Redis", () => {
  it("agree with the database's aggregate through transitions, heartbeats, staleness, prune and a Redis restart", async () => {
    const { org, project } = await seedProject(deps, "team");
    const intake = new BreakerReportIntake(deps, { flushMs: 60_000 });
    const viewer: Ctx = {
      ...deps,
      actor: { type: "user", userId: "u", isOperator: false },
      organizationId: org.id,
      role: "viewer",
    };
    const sorted = (rows: Row[]) =>
      [...rows].sort((a, b) => a.provider.localeCompare(b.provider)).map((r) => ({ ...r }));
    // Every figure counted (Redis + totals + the not-closed rows) against the same aggregated from
    // the snapshots, and the pages built on them.
    const compare = async (now: Date) => {
      const counted = await fleetRows(viewer, [project.id], now);
      expect(counted).toHaveLength(2);
      expect(sorted(counted)).toEqual(sorted(await aggregateRows(viewer, [project.id], now)));
      const grid = await getFleetOverview(viewer, { organizationId: org.id, now });
      for (const provider of ["openai", "anthropic"]) {
        const page = await getProviderHealth(viewer, { projectId: project.id, provider, now, days: 2 });
        const cell = grid.projects[0]!.cells[provider]!;
        expect([page.counts, page.status, page.summary]).toEqual([
          { healthy: cell.healthy, down: cell.down, recovering: cell.recovering, stale: cell.stale },
          cell.status,
          cell.summary,
        ]);
      }
      return grid.projects[0]!.cells;
    };
    let clock = Date.now() - 20_000;
    const report = (provider: string, inst: string, state: CircuitState) =>
      intake.report({
        projectId: project.id,
        provider,
        sdkInstanceId: inst,
        state,
        failureCount: 1,
        successCount: 2,
        reportedAt: new Date(++clock),
      });

    // First reports: every one a transition through the database.
    const states: CircuitState[] = ["closed", "open", "half_open"];
    for (let i = 0; i < 9; i++) await report("openai", `i${i}`, states[i % 3]!);
    for (let i = 0; i < 4; i++) await report("anthropic", `i${i}`, "closed");
    await settled(project.id);
    expect(await totals(project.id)).toEqual({ openai: 9, anthropic: 4 });
    const early = Date.now();

    await sleep(1_200);
    // Heartbeats move some instances' last-seen time forward; one instance changes state.
    for (let i = 0; i < 4; i++) expect(await report("openai", `i${i}`, states[i % 3]!)).toBe("heartbeat");
    expect(await report("anthropic", "i0", "open")).toBe("transition");
    await settled(project.id);
    await intake.flush();

    const now = new Date();
    const cells = await compare(now);
    // Counted from Redis, not aggregated: the project's sets are complete and answer.
    expect((await liveCounts(deps, new Map([[project.id, ["openai"]]]), now)).size).toBe(1);
    expect(cells.openai).toMatchObject({ healthy: 3, down: 3, recovering: 3, stale: 0 });
    expect(cells.anthropic).toMatchObject({ healthy: 3, down: 1, stale: 0, status: "Down" });
    // Past the stale window of the first reports but not of the heartbeats: only those are live.
    const later = new Date(early + STALE_S * 1000 + 300);
    expect((await compare(later)).openai).toMatchObject({ healthy: 2, down: 1, recovering: 1, stale: 5 });
    expect((await compare(new Date(Date.now() + STALE_S * 1000 + 1_000))).openai).toMatchObject({
      healthy: 0,
      stale: 9,
      status: "Unknown",
    });

    // A Redis restart: the sets and the snapshot hash are gone; the next read rebuilds them.
    const k = fleetKeys(project.id);
    const liveKeys = ["openai", "anthropic"].flatMap((p) => states.map((s) => k.live(s, p)));
    await redis.del(k.snap, k.built, k.last, ...liveKeys);
    await compare(new Date());
    expect(await redis.exists(k.built)).toBe(1);
    await compare(later);

    // A pruned snapshot leaves the totals and the sets.
    await base.db.breakerSnapshot.delete({
      where: {
        projectId_provider_sdkInstanceId: { projectId: project.id, provider: "openai", sdkInstanceId: "i8" },
      },
    });
    await runScript(redis, BREAKER_FORGET_SCRIPT, [k.snap, k.busy], [snapshotField("openai", "i8")]);
    expect(await totals(project.id)).toEqual({ openai: 8, anthropic: 4 });
    expect((await compare(new Date())).openai).toMatchObject({ healthy: 3, down: 3, recovering: 2 });

    // Without Redis's `built` mark and with another reader rebuilding, the read counts from the database.
    await redis.del(k.built);
    await redis.set(k.rebuilding, "1", "PX", 5_000);
    await compare(new Date());
    expect(await redis.exists(k.built)).toBe(0);
    await redis.del(k.rebuilding);

    await intake.close();
    await base.db.project.delete({ where: { id: project.id } });
    expect(await totals(project.id)).toEqual({});
  });
});
