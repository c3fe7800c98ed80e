import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createBudgetRedis } from "../budgets/budget-redis";
import { newId } from "../ids";
import { seedProject, testDeps } from "../testing/fleet";
import { BreakerReportIntake, type BreakerReportPath } from "./breaker-heartbeats";
import type { CircuitState } from "./breaker-state";
import { fleetKeys, snapshotField } from "./fleet-redis";

const base = testDeps({ BREAKER_STALE_SECONDS: "60" });
const redis = createBudgetRedis(base.config);
const pool = new pg.Pool({ connectionString: base.config.DATABASE_URL, max: 4 });
const deps = { ...base, redis, pg: pool };
// A long window: the tests flush by hand, so nothing is written behind their backs.
const intake = () => new BreakerReportIntake(deps, { flushMs: 60_000 });

afterAll(async () => {
  redis.disconnect();
  await pool.end();
  await base.db.$disconnect();
});

const t0 = Date.now() - 30_000;
const at = (s: number) => new Date(t0 + s * 1000);

function reporter(
  b: BreakerReportIntake,
  projectId: string,
  sdkInstanceId = `inst-${newId("res").slice(-8)}`,
) {
  return (state: CircuitState, s: number, counts: [number, number] = [0, 0]): Promise<BreakerReportPath> =>
    b.report({
      projectId,
      provider: "openai",
      sdkInstanceId,
      state,
      failureCount: counts[0],
      successCount: counts[1],
      reportedAt: at(s),
    });
}

function snapshot(projectId: string, sdkInstanceId: string) {
  return base.db.breakerSnapshot.findUniqueOrThrow({
    where: { projectId_provider_sdkInstanceId: { projectId, provider: "openai", sdkInstanceId } },
  });
}

/** The per-instance events (a lone instance going Down also opens a provider incident). */
const breakerEvents = (projectId: string) => ({ projectId, type: { startsWith: "circuit_breaker_" } });

async function settled(projectId: string) {
  // Settles are written after the answer; give them a moment.
  for (let i = 0; i < 50; i++) {
    if ((await redis.hlen(fleetKeys(projectId).busy)) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("busy marks never lifted");
}

describe("breaker heartbeats", () => {
  it("answers an unchanged state from Redis and writes its last-seen time at the flush", async () => {
    const { project } = await seedProject(base);
    const b = intake();
    const report = reporter(b, project.id, "web-1");
    expect(await report("closed", 0, [0, 1])).toBe("transition");
    await settled(project.id);
    const before = await snapshot(project.id, "web-1");

    expect(await report("closed", 5, [0, 7])).toBe("heartbeat");
    expect(await report("closed", 6, [0, 8])).toBe("heartbeat");
    // Nothing reached Postgres yet: no transaction per heartbeat.
    expect((await snapshot(project.id, "web-1")).reportedAt).toEqual(before.reportedAt);
    expect(b.counts.buffered).toBe(1);

    await b.flush();
    const after = await snapshot(project.id, "web-1");
    expect(after).toMatchObject({ state: "closed", successCount: 8, reportedAt: at(6) });
    expect(after.receivedAt.getTime()).toBeGreaterThanOrEqual(before.receivedAt.getTime());
    expect(after.stateSince).toEqual(before.stateSince);
    expect(b.counts).toMatchObject({ heartbeat: 2, flushedRows: 1, replayedRows: 0, buffered: 0 });
    expect(await base.db.breakerTransition.count({ where: { projectId: project.id } })).toBe(1);
    await b.close();
  });

  it("sends changes, late reports and unknown instances the transactional way", async () => {
    const { project } = await seedProject(base);
    const b = intake();
    const report = reporter(b, project.id, "web-2");
    expect(await report("closed", 0)).toBe("transition");
    await settled(project.id);
    expect(await report("open", 10, [5, 0])).toBe("transition");
    await settled(project.id);
    expect(await report("closed", 9)).toBe("late");
    expect(await report("open", 10)).toBe("late");
    expect(await report("open", 11, [6, 0])).toBe("heartbeat");
    expect(await report("closed", 20, [0, 1])).toBe("transition");
    await settled(project.id);
    await b.flush();
    const snap = await snapshot(project.id, "web-2");
    expect(snap).toMatchObject({ state: "closed", reportedAt: at(20), openEpisodeId: null });
    const events = await base.db.webhookEvent.findMany({ where: breakerEvents(project.id) });
    expect(events.map((e) => e.type).sort()).toEqual(["circuit_breaker_closed", "circuit_breaker_opened"]);

    // Redis forgets everything (a restart): the next report is judged by Postgres, and is right.
    await redis.del(fleetKeys(project.id).snap);
    expect(await report("closed", 30)).toBe("applied");
    await settled(project.id);
    expect(await report("closed", 31)).toBe("heartbeat");
    await b.close();
  });

  it("a stale instance that comes back is judged by the transactional path", async () => {
    const { project } = await seedProject(base);
    const b = intake();
    const report = reporter(b, project.id, "web-3");
    expect(await report("closed", 0)).toBe("transition");
    await settled(project.id);
    // Its last report arrived long ago (older than BREAKER_STALE_SECONDS).
    const field = snapshotField("openai", "web-3");
    const old = Date.now() - 120_000;
    await redis.hset(fleetKeys(project.id).snap, field, `closed|${at(0).getTime()}|${old}`);
    await base.db.breakerSnapshot.update({
      where: {
        projectId_provider_sdkInstanceId: {
          projectId: project.id,
          provider: "openai",
          sdkInstanceId: "web-3",
        },
      },
      data: { receivedAt: new Date(old) },
    });
    expect(await report("closed", 1)).toBe("applied");
    await settled(project.id);
    expect((await snapshot(project.id, "web-3")).receivedAt.getTime()).toBeGreaterThan(old);
    expect(await report("closed", 2)).toBe("heartbeat");
    await b.close();
  });

  it("a heartbeat whose assumed state Postgres does not hold is replayed as the change it is", async () => {
    const { project } = await seedProject(base);
    const b = intake();
    const report = reporter(b, project.id, "web-4");
    expect(await report("closed", 0)).toBe("transition");
    expect(await report("open", 1, [5, 0])).toBe("transition");
    await settled(project.id);
    // Redis says closed where Postgres says open: what a Redis entry that outlived a lost settle
    // could look like.
    await redis.hset(
      fleetKeys(project.id).snap,
      snapshotField("openai", "web-4"),
      `closed|${at(0).getTime()}|${Date.now()}`,
    );
    expect(await report("closed", 2, [0, 1])).toBe("heartbeat");
    await b.flush();
    expect(b.counts.replayedRows).toBe(1);
    const snap = await snapshot(project.id, "web-4");
    expect(snap).toMatchObject({ state: "closed", reportedAt: at(2), openEpisodeId: null });
    const types = (await base.db.webhookEvent.findMany({ where: breakerEvents(project.id) })).map(
      (e) => e.type,
    );
    expect(types.sort()).toEqual(["circuit_breaker_closed", "circuit_breaker_opened"]);
    await b.close();
  });

  it("two processes' concurrent reports of one instance end on the newest, with a consistent history", async () => {
    const { project } = await seedProject(base);
    const a = intake();
    const c = intake();
    const id = "web-5";
    const states: CircuitState[] = ["closed", "open", "half_open"];
    // 120 reports over 60 s of report time, each sent to one of the two processes, 16 in flight.
    const reports = Array.from({ length: 120 }, (_, k) => ({
      s: k * 0.5,
      state: k % 7 < 4 ? "closed" : states[(k * 5) % 3]!,
      via: (k * 7) % 3 === 0 ? a : c,
    }));
    const shuffled = [...reports].sort(() => Math.random() - 0.5);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < shuffled.length) {
          const r = shuffled[next++]!;
          await reporter(r.via, project.id, id)(r.state, r.s);
        }
      }),
    );
    await settled(project.id);
    await a.flush();
    await c.flush();
    const newest = reports[reports.length - 1]!;
    const snap = await snapshot(project.id, id);
    expect(snap.state).toBe(newest.state);
    expect(snap.reportedAt).toEqual(at(newest.s));
    // Each transition starts where the one before ended, and the last ends in the stored state.
    const transitions = await base.db.breakerTransition.findMany({
      where: { projectId: project.id },
      orderBy: { reportedAt: "asc" },
    });
    for (let k = 1; k < transitions.length; k++) {
      expect(transitions[k]!.fromState).toBe(transitions[k - 1]!.toState);
    }
    expect(transitions.at(-1)!.toState).toBe(snap.state);
    // Episodes' events alternate opened/closed.
    const events = await base.db.webhookEvent.findMany({
      where: breakerEvents(project.id),
      orderBy: { createdAt: "asc" },
    });
    events.forEach((e, k) => {
      expect(e.type).toBe(k % 2 === 0 ? "circuit_breaker_opened" : "circuit_breaker_closed");
    });
    await a.close();
    await c.close();
  });
});
