import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBreakerEvent } from "../events/breaker-events";
import { newId } from "../ids";
import { seedProject, testDeps } from "../testing/fleet";
import { closeStaleEpisodes } from "./close-stale-episodes";
import {
  type BreakerReportDeps,
  type BreakerReportInput,
  recordBreakerReport,
  recordBreakerReports,
} from "./record-breaker-report";

const deps = testDeps({ BREAKER_STALE_SECONDS: "60", PUBLIC_URL: "https://bw.example.com/" });
// The same statements run in a Prisma transaction (no pool) or on a plain pg connection (the SDK
// API's intake): every test below runs both ways.
const pool = new pg.Pool({ connectionString: deps.config.DATABASE_URL, max: 10 });
afterAll(() => Promise.all([deps.db.$disconnect(), pool.end()]));
let current: BreakerReportDeps = deps;

const t0 = Date.parse("2026-11-30T12:00:00.000Z");
const at = (s: number) => new Date(t0 + s * 1000);

function reporter(projectId: string, provider = "openai", sdkInstanceId = `inst-${newId("res").slice(-8)}`) {
  return (state: BreakerReportInput["state"], s: number, counts: [number, number] = [0, 0]) =>
    recordBreakerReport(current, {
      projectId,
      provider,
      sdkInstanceId,
      state,
      failureCount: counts[0],
      successCount: counts[1],
      reportedAt: at(s),
    });
}

async function eventsOf(projectId: string) {
  // The per-instance stream (provider incidents have their own tests).
  return deps.db.webhookEvent.findMany({
    where: { projectId, type: { startsWith: "circuit_breaker_" } },
    orderBy: { createdAt: "asc" },
    include: { outbox: true },
  });
}

describe.each([
  ["a Prisma transaction", deps],
  ["a pg connection", { ...deps, pg: pool }],
] as const)("recordBreakerReport on %s", (_, variant: BreakerReportDeps) => {
  beforeAll(() => {
    current = variant;
  });

  it("opens one episode, records Recovering silently, closes it with duration and resolution", async () => {
    const { project } = await seedProject(deps);
    const report = reporter(project.id, "anthropic", "web-1");
    expect(await report("closed", 0)).toMatchObject({ applied: true, transition: true, eventIds: [] });
    const opened = await report("open", 10, [5, 0]);
    expect(opened.eventIds).toHaveLength(1);
    expect(await report("open", 70, [5, 0])).toMatchObject({
      applied: true,
      transition: false,
      eventIds: [],
    });
    expect(await report("half_open", 100, [0, 1])).toMatchObject({ transition: true, eventIds: [] });
    expect(await report("open", 110, [1, 1])).toMatchObject({ transition: true, eventIds: [] });
    expect(await report("half_open", 140)).toMatchObject({ transition: true, eventIds: [] });
    const closed = await report("closed", 160, [0, 3]);
    expect(closed.eventIds).toHaveLength(1);

    const events = await eventsOf(project.id);
    expect(events.map((e) => e.type)).toEqual(["circuit_breaker_opened", "circuit_breaker_closed"]);
    const [o, c] = events.map((e) => parseBreakerEvent(e.payload));
    expect(o?.data).toMatchObject({
      event_id: opened.eventIds[0],
      provider: "anthropic",
      sdk_instance_id: "web-1",
      state: "open",
      previous_state: "closed",
      failure_count: 5,
      project_name: project.name,
      opened_at: at(10).toISOString(),
      dashboard_url: `https://bw.example.com/fleet/${project.id}/anthropic`,
    });
    expect(o?.data).not.toHaveProperty("closed_at");
    expect(c?.data).toMatchObject({
      event_id: closed.eventIds[0],
      episode_id: o?.data.episode_id,
      state: "closed",
      previous_state: "half_open",
      closed_at: at(160).toISOString(),
      duration_seconds: 150,
      resolution: "recovered",
    });
    // Team plan: both deliverable, each with its outbox row.
    expect(events.every((e) => e.deliverable && e.outbox)).toBe(true);

    const episode = await deps.db.breakerEpisode.findUniqueOrThrow({ where: { id: o!.data.episode_id } });
    expect(episode).toMatchObject({ resolution: "recovered", lastState: "closed", recoveringSecs: 30 });
    const transitions = await deps.db.breakerTransition.findMany({
      where: { projectId: project.id },
      orderBy: { reportedAt: "asc" },
    });
    expect(transitions.map((t) => `${t.fromState}>${t.toState}`)).toEqual([
      "null>closed",
      "closed>open",
      "open>half_open",
      "half_open>open",
      "open>half_open",
      "half_open>closed",
    ]);
  });

  it("ignores duplicates and older reported_at: no transition, no event, snapshot unchanged", async () => {
    const { project } = await seedProject(deps);
    const report = reporter(project.id);
    await report("open", 20, [3, 0]);
    expect(await report("open", 20, [3, 0])).toMatchObject({
      applied: false,
      transition: false,
      eventIds: [],
    });
    expect(await report("closed", 5, [0, 9])).toMatchObject({
      applied: false,
      transition: false,
      eventIds: [],
    });
    expect(await report("closed", 20, [0, 9])).toMatchObject({
      applied: false,
      transition: false,
      eventIds: [],
    });
    const snap = await deps.db.breakerSnapshot.findFirstOrThrow({ where: { projectId: project.id } });
    expect(snap).toMatchObject({ state: "open", failureCount: 3, reportedAt: at(20) });
    expect(await deps.db.breakerTransition.count({ where: { projectId: project.id } })).toBe(1);
    expect((await eventsOf(project.id)).length).toBe(1);
  });

  it("lets exactly one of many concurrent identical reports through", async () => {
    const { project } = await seedProject(deps);
    const report = reporter(project.id);
    // A brand-new instance: the racing first inserts must yield one snapshot and one episode.
    const first = await Promise.all(Array.from({ length: 8 }, () => report("open", 1, [5, 0])));
    expect(first.filter((r) => r.applied)).toHaveLength(1);
    await report("half_open", 2);
    const closing = await Promise.all(Array.from({ length: 8 }, () => report("closed", 3)));
    expect(closing.filter((r) => r.applied)).toHaveLength(1);
    const events = await eventsOf(project.id);
    expect(events.map((e) => e.type)).toEqual(["circuit_breaker_opened", "circuit_breaker_closed"]);
    expect(await deps.db.breakerEpisode.count({ where: { projectId: project.id } })).toBe(1);
  });

  it("a close racing the opening it follows closes the episode that opening committed", async () => {
    const { project } = await seedProject(deps);
    const reporters = Array.from({ length: 12 }, () => reporter(project.id));
    for (const report of reporters) await report("closed", 0);
    // Sent together: the close often waits for the open's row lock and then finds an episode its
    // own statement could not see yet.
    await Promise.all(reporters.flatMap((report) => [report("open", 1, [5, 0]), report("closed", 2)]));
    const episodes = await deps.db.breakerEpisode.findMany({ where: { projectId: project.id } });
    const events = await eventsOf(project.id);
    for (const e of episodes) {
      expect(e.closedAt?.getTime()).toBe(at(2).getTime());
      expect(e.resolution).toBe("recovered");
    }
    const closed = events.filter((e) => e.type === "circuit_breaker_closed");
    expect(closed).toHaveLength(episodes.length);
    expect(events.filter((e) => e.type === "circuit_breaker_opened")).toHaveLength(episodes.length);
    for (const e of closed) expect(parseBreakerEvent(e.payload).data).toMatchObject({ duration_seconds: 1 });
    const snapshots = await deps.db.breakerSnapshot.findMany({ where: { projectId: project.id } });
    expect(snapshots.every((x) => x.state === "closed" && x.openEpisodeId === null)).toBe(true);
  });

  it("a stale instance's open episode is closed once as instance_expired; a late report fires nothing", async () => {
    const { project } = await seedProject(deps);
    const report = reporter(project.id, "google", "dying-1");
    const other = reporter(project.id, "google", "alive-1");
    await report("open", 0, [5, 0]);
    await other("closed", 0);
    const later = new Date(Date.now() + 61_000);
    const swept = await closeStaleEpisodes(deps, { now: later, projectIds: [project.id] });
    expect(swept.closed).toBe(1);
    expect((await closeStaleEpisodes(deps, { now: later, projectIds: [project.id] })).closed).toBe(0);

    const events = await eventsOf(project.id);
    const closed = parseBreakerEvent(events[1]?.payload);
    expect(closed).toMatchObject({
      type: "circuit_breaker_closed",
      data: { resolution: "instance_expired", state: "open", closed_at: later.toISOString() },
    });
    // The instance comes back closed: no episode is open, so nothing fires.
    expect((await report("closed", 200)).eventIds).toEqual([]);
    // …and opening again starts a new episode with its own opened event.
    expect((await report("open", 300)).eventIds).toHaveLength(1);
  });

  it("free plan: transitions recorded, events undeliverable; an override turns delivery on for later ones", async () => {
    const { org, project } = await seedProject(deps, "free");
    const report = reporter(project.id);
    await report("open", 0);
    const firstClose = await report("closed", 10);
    expect(firstClose.transition).toBe(true);
    let events = await eventsOf(project.id);
    expect(events.map((e) => [e.deliverable, e.outbox !== null])).toEqual([
      [false, false],
      [false, false],
    ]);
    await deps.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: org.id,
        featureKey: "breaker_webhooks",
        value: true,
        reason: "trial",
      },
    });
    await report("open", 20);
    await report("closed", 30);
    events = await eventsOf(project.id);
    expect(events.map((e) => e.deliverable)).toEqual([false, false, true, true]);
    expect(events.slice(2).every((e) => e.outbox?.completedAt === null)).toBe(true);
  });

  it("a downgrade still delivers the close of an episode whose open was delivered", async () => {
    const { org, project } = await seedProject(deps, "free");
    const ovr = await deps.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: org.id,
        featureKey: "breaker_webhooks",
        value: true,
        reason: "x",
      },
    });
    const report = reporter(project.id);
    await report("open", 0);
    await deps.db.entitlementOverride.delete({ where: { id: ovr.id } });
    await report("closed", 10);
    await report("open", 20);
    const events = await eventsOf(project.id);
    expect(events.map((e) => [e.type, e.deliverable])).toEqual([
      ["circuit_breaker_opened", true],
      ["circuit_breaker_closed", true],
      ["circuit_breaker_opened", false],
    ]);
  });

  it("the episode keeps whether its opening was delivered; one opened before it kept that asks its opening event", async () => {
    const { org, project } = await seedProject(deps, "free");
    const ovr = await deps.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: org.id,
        featureKey: "breaker_webhooks",
        value: true,
        reason: "x",
      },
    });
    const report = reporter(project.id);
    await report("open", 0);
    const [episode] = await deps.db.breakerEpisode.findMany({ where: { projectId: project.id } });
    expect(episode?.openedDelivered).toBe(true);
    // As an episode opened before the column existed looks; the entitlement is gone meanwhile.
    await deps.db.breakerEpisode.update({ where: { id: episode!.id }, data: { openedDelivered: null } });
    await deps.db.entitlementOverride.delete({ where: { id: ovr.id } });
    await report("closed", 10);
    await report("open", 20);
    const episodes = await deps.db.breakerEpisode.findMany({
      where: { projectId: project.id },
      orderBy: { openedAt: "asc" },
    });
    expect(episodes.map((e) => e.openedDelivered)).toEqual([null, false]);
    const events = await eventsOf(project.id);
    expect(events.map((e) => [e.type, e.deliverable])).toEqual([
      ["circuit_breaker_opened", true],
      ["circuit_breaker_closed", true],
      ["circuit_breaker_opened", false],
    ]);
  });

  it("a batch records exactly what the same reports recorded one by one (in Prisma) would", async () => {
    const states: BreakerReportInput["state"][] = ["closed", "open", "half_open"];
    // Three instances, each report newer or older than the last, duplicates included.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const script = Array.from({ length: 90 }, (_, k) => ({
      instance: `i-${rand(3)}`,
      state: states[rand(3)]!,
      s: k - rand(6) * 2,
      counts: [rand(9), rand(9)] as [number, number],
    }));
    const one = await seedProject(deps, "team");
    const many = await seedProject(deps, "team");
    const input = (projectId: string, r: (typeof script)[number]): BreakerReportInput => ({
      projectId,
      provider: "openai",
      sdkInstanceId: r.instance,
      state: r.state,
      failureCount: r.counts[0],
      successCount: r.counts[1],
      reportedAt: at(r.s),
    });
    const sequential = [];
    for (const r of script) sequential.push(await recordBreakerReport(deps, input(one.project.id, r)));
    const batched = [];
    for (let k = 0; k < script.length; k += 30) {
      batched.push(
        ...(await recordBreakerReports(
          current,
          script.slice(k, k + 30).map((r) => input(many.project.id, r)),
        )),
      );
    }
    const shape = (r: { applied: boolean; transition: boolean; eventIds: string[] }) => [
      r.applied,
      r.transition,
      r.eventIds.length,
    ];
    expect(batched.map(shape)).toEqual(sequential.map(shape));

    const stored = async (projectId: string) => {
      const snapshots = await deps.db.breakerSnapshot.findMany({
        where: { projectId },
        orderBy: { sdkInstanceId: "asc" },
        select: {
          sdkInstanceId: true,
          state: true,
          failureCount: true,
          successCount: true,
          reportedAt: true,
          stateSince: true,
          openEpisodeId: true,
        },
      });
      const transitions = await deps.db.breakerTransition.findMany({
        where: { projectId },
        orderBy: [{ sdkInstanceId: "asc" }, { reportedAt: "asc" }],
        select: {
          sdkInstanceId: true,
          fromState: true,
          toState: true,
          failureCount: true,
          successCount: true,
          reportedAt: true,
        },
      });
      const episodes = await deps.db.breakerEpisode.findMany({
        where: { projectId },
        orderBy: [{ sdkInstanceId: "asc" }, { openedAt: "asc" }],
        select: {
          sdkInstanceId: true,
          openedAt: true,
          closedAt: true,
          resolution: true,
          lastState: true,
          recoveringSecs: true,
        },
      });
      const events = (await eventsOf(projectId)).map((e) => {
        const { event_id, episode_id, project_id, project_name, dashboard_url, ...data } = parseBreakerEvent(
          e.payload,
        ).data as Record<string, unknown>;
        return { type: e.type, deliverable: e.deliverable, outbox: e.outbox !== null, data };
      });
      return {
        snapshots: snapshots.map((x) => ({ ...x, openEpisodeId: x.openEpisodeId !== null })),
        transitions,
        episodes: episodes.map((x) => ({ ...x, recoveringSecs: Math.round(x.recoveringSecs * 1000) })),
        events,
      };
    };
    const a = await stored(one.project.id);
    const b = await stored(many.project.id);
    expect(b.transitions.length).toBeGreaterThan(10);
    expect(b.events.length).toBeGreaterThan(4);
    expect(b).toEqual(a);
  });
});
