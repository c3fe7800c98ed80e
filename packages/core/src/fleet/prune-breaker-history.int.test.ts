import { afterAll, describe, expect, it } from "vitest";
import { createBudgetRedis } from "../budgets/budget-redis";
import { newId } from "../ids";
import { seedProject, testDeps } from "../testing/fleet";
import { fleetKeys, snapshotField } from "./fleet-redis";
import { pruneBreakerHistory } from "./prune-breaker-history";

const base = testDeps({ BREAKER_SNAPSHOT_RETENTION_DAYS: "7" });
const redis = createBudgetRedis(base.config);
const deps = { ...base, redis };
afterAll(async () => {
  redis.disconnect();
  await base.db.$disconnect();
});

const DAY = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * DAY);

async function fleetOf(planSlug: string) {
  const { project } = await seedProject(base, planSlug);
  const snapshot = (id: string, silentDays: number, openEpisodeId: string | null = null) => ({
    projectId: project.id,
    provider: "openai",
    sdkInstanceId: id,
    state: openEpisodeId ? ("open" as const) : ("closed" as const),
    failureCount: 0,
    successCount: 1,
    reportedAt: ago(silentDays),
    receivedAt: ago(silentDays),
    firstSeenAt: ago(silentDays + 1),
    stateSince: ago(silentDays),
    openEpisodeId,
  });
  const episodeId = newId("ep");
  await base.db.breakerEpisode.create({
    data: {
      id: episodeId,
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: "down-old",
      openedAt: ago(9),
      lastState: "open",
    },
  });
  await base.db.breakerSnapshot.createMany({
    data: [
      snapshot("live", 0),
      snapshot("quiet-3d", 3),
      snapshot("gone-8d", 8),
      snapshot("gone-40d", 40),
      snapshot("down-old", 9, episodeId),
    ],
  });
  const transition = (days: number) => ({
    id: newId("tr"),
    projectId: project.id,
    provider: "openai",
    sdkInstanceId: "live",
    fromState: "closed" as const,
    toState: "open" as const,
    failureCount: 1,
    successCount: 0,
    reportedAt: ago(days),
    recordedAt: ago(days),
  });
  await base.db.breakerTransition.createMany({
    data: [transition(1), transition(20), transition(45), transition(100)],
  });
  const keys = fleetKeys(project.id);
  for (const id of ["live", "gone-8d", "gone-40d"]) {
    await redis.hset(
      keys.snap,
      snapshotField("openai", id),
      `closed|${ago(8).getTime()}|${ago(8).getTime()}`,
    );
  }
  return project;
}

const instances = async (projectId: string) =>
  (await base.db.breakerSnapshot.findMany({ where: { projectId }, select: { sdkInstanceId: true } }))
    .map((s) => s.sdkInstanceId)
    .sort();

describe("pruneBreakerHistory", () => {
  it("deletes long-silent snapshots (not ones with an open episode), their Redis entries, and transitions past retention_days", async () => {
    const team = await fleetOf("solo"); // retention_days 30
    const free = await fleetOf("free"); // retention_days 7
    const r = await pruneBreakerHistory(deps, { now, projectIds: [team.id, free.id], batchSize: 1 });
    expect(r).toMatchObject({ snapshots: 4, more: false });
    for (const p of [team, free]) {
      expect(await instances(p.id)).toEqual(["down-old", "live", "quiet-3d"]);
      expect(await redis.hkeys(fleetKeys(p.id).snap)).toEqual([snapshotField("openai", "live")]);
    }
    const kept = async (projectId: string) =>
      (
        await base.db.breakerTransition.findMany({ where: { projectId }, orderBy: { reportedAt: "desc" } })
      ).map((t) => Math.round((now.getTime() - t.reportedAt.getTime()) / DAY));
    expect(await kept(team.id)).toEqual([1, 20]);
    expect(await kept(free.id)).toEqual([1]);
    expect(r.transitions).toBe(2 + 3);
    // Nothing left to do: a second run deletes nothing.
    expect(await pruneBreakerHistory(deps, { now, projectIds: [team.id, free.id] })).toMatchObject({
      snapshots: 0,
      transitions: 0,
    });
  });

  it("stops at maxBatches and says there is more; the next run goes on", async () => {
    const p = await fleetOf("team");
    const first = await pruneBreakerHistory(deps, { now, projectIds: [p.id], batchSize: 1, maxBatches: 1 });
    expect(first).toMatchObject({ snapshots: 1, more: true });
    const rest = await pruneBreakerHistory(deps, { now, projectIds: [p.id], batchSize: 1 });
    expect(rest.snapshots).toBe(1);
    expect(await instances(p.id)).toEqual(["down-old", "live", "quiet-3d"]);
  });
});
