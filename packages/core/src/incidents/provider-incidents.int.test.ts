import { afterAll, describe, expect, it } from "vitest";
import { parseWebhookEvent } from "../events/breaker-events";
import { closeStaleEpisodes } from "../fleet/close-stale-episodes";
import { recordBreakerReport } from "../fleet/record-breaker-report";
import { seedProject, testDeps } from "../testing/fleet";
import { evaluateProviderIncident, sweepProviderIncidents } from "./evaluate-provider-incident";

const STALE_S = 120;
const deps = testDeps({ BREAKER_STALE_SECONDS: String(STALE_S), PUBLIC_URL: "https://bw.example.com" });
afterAll(() => deps.db.$disconnect());

const later = (ms: number) => new Date(Date.now() + ms);

async function project(settings: { thresholdPct?: number | null; minS?: number; quietS?: number } = {}) {
  const { org, project } = await seedProject(deps, "team");
  await deps.db.project.update({
    where: { id: project.id },
    data: {
      incidentThresholdPct: settings.thresholdPct ?? null,
      incidentMinDurationSecs: settings.minS ?? 0,
      incidentQuietSecs: settings.quietS ?? 60,
    },
  });
  return { org, project };
}

/** Reports `state` for instances [from, to) of a fleet, all at once (as an outage looks). */
async function fleet(
  projectId: string,
  state: "open" | "closed" | "half_open",
  from: number,
  to: number,
  t = Date.now(),
) {
  await Promise.all(
    Array.from({ length: to - from }, (_, k) =>
      recordBreakerReport(deps, {
        projectId,
        provider: "openai",
        sdkInstanceId: `inst-${String(from + k).padStart(2, "0")}`,
        state,
        failureCount: state === "closed" ? 0 : 5,
        successCount: 0,
        reportedAt: new Date(t + (from + k)),
      }),
    ),
  );
}

async function typesOf(projectId: string) {
  const events = await deps.db.webhookEvent.findMany({
    where: { projectId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { outbox: true },
  });
  const count = (type: string) => events.filter((e) => e.type === type).length;
  return { events, count };
}

describe("provider incidents", () => {
  it("40 instances Down within a second open exactly one incident; recovery + quiet period resolve it once", async () => {
    const { project: p } = await project();
    const t0 = Date.now() - 5_000;
    // The fleet comes up one instance at a time (this also warms the connection pool).
    for (let k = 0; k < 40; k++) await fleet(p.id, "closed", k, k + 1, t0);
    // Reported within 40 ms of each other.
    await fleet(p.id, "open", 0, 40, t0 + 1_000);

    let { count, events } = await typesOf(p.id);
    expect(count("provider_incident_opened")).toBe(1);
    const opened = parseWebhookEvent(events.find((e) => e.type === "provider_incident_opened")!.payload);
    if (opened.type !== "provider_incident_opened") throw new Error("not an opened event");
    // The 50 % and 100 % crossings after the opening are announced once each (a milestone the
    // share had already reached when the incident opened is part of the opening).
    const updated = events
      .filter((e) => e.type === "provider_incident_updated")
      .map((e) => parseWebhookEvent(e.payload))
      .map((e) => (e.type === "provider_incident_updated" ? e.data.crossed_share : null));
    expect(updated).toEqual([0.5, 1].filter((m) => m > opened.data.affected_share));
    expect(updated).toContain(1);
    // The per-instance stream is what it always was: one opened per instance.
    expect(count("circuit_breaker_opened")).toBe(40);

    const open = await deps.db.providerIncident.findFirstOrThrow({ where: { projectId: p.id } });
    expect(open).toMatchObject({
      status: "open",
      peakCount: 40,
      peakShare: 1,
      affectedCount: 40,
      liveCount: 40,
    });
    expect(open.id).toMatch(/^inc_[0-9a-f]{24}$/);
    expect(open.instances).toHaveLength(40);
    expect(opened.data.affected_instances).toBeGreaterThanOrEqual(10);
    expect(opened).toMatchObject({
      type: "provider_incident_opened",
      data: {
        incident_id: open.id,
        project_id: p.id,
        provider: "openai",
        live_instances: 40,
        threshold_instances: 10,
        dashboard_url: `https://bw.example.com/fleet/${p.id}/openai`,
      },
    });
    // Deliverable on the team plan, with an outbox row, like every other event.
    expect(
      events.filter((e) => e.type.startsWith("provider_incident")).every((e) => e.deliverable && e.outbox),
    ).toBe(true);

    await fleet(p.id, "closed", 0, 40, t0 + 3_000);
    ({ count } = await typesOf(p.id));
    expect(count("circuit_breaker_closed")).toBe(40);
    // Recovered, but the quiet period has not passed: still open.
    expect(count("provider_incident_resolved")).toBe(0);
    expect((await sweepProviderIncidents(deps, { now: later(30_000), projectIds: [p.id] })).resolved).toBe(0);

    // After the quiet period: resolved exactly once, however often it is evaluated.
    const resolveAt = later(61_000);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        evaluateProviderIncident(deps, { projectId: p.id, provider: "openai", now: resolveAt }),
      ),
    );
    await sweepProviderIncidents(deps, { now: later(120_000), projectIds: [p.id] });
    ({ count, events } = await typesOf(p.id));
    expect(count("provider_incident_opened")).toBe(1);
    expect(count("provider_incident_resolved")).toBe(1);
    expect(count("circuit_breaker_opened")).toBe(40);
    expect(count("circuit_breaker_closed")).toBe(40);
    const resolved = parseWebhookEvent(events.find((e) => e.type === "provider_incident_resolved")!.payload);
    expect(resolved).toMatchObject({
      data: {
        incident_id: open.id,
        peak_affected_instances: 40,
        peak_affected_share: 1,
        affected_instances: 0,
      },
    });
    if (resolved.type === "provider_incident_resolved") {
      expect(resolved.data.instances_involved).toHaveLength(40);
      expect(resolved.data.duration_seconds).toBeGreaterThan(60);
    }
    const done = await deps.db.providerIncident.findUniqueOrThrow({ where: { id: open.id } });
    expect(done.status).toBe("resolved");
    expect(done.resolvedAt).not.toBeNull();
  });

  it("two concurrent evaluators of the same reports open exactly one incident", async () => {
    const { project: p } = await project();
    // Instances go Down without evaluating (as if both replicas crashed right after the report).
    const now = new Date();
    await deps.db.breakerSnapshot.createMany({
      data: Array.from({ length: 8 }, (_, k) => ({
        projectId: p.id,
        provider: "openai",
        sdkInstanceId: `r-${k}`,
        state: "open" as const,
        failureCount: 5,
        successCount: 0,
        reportedAt: now,
        receivedAt: now,
      })),
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        evaluateProviderIncident(deps, { projectId: p.id, provider: "openai" }),
      ),
    );
    expect(results.filter((r) => r.change === "opened")).toHaveLength(1);
    expect(new Set(results.map((r) => r.incidentId))).toEqual(new Set([results[0]!.incidentId]));
    expect(await deps.db.providerIncident.count({ where: { projectId: p.id } })).toBe(1);
    const { count } = await typesOf(p.id);
    expect(count("provider_incident_opened")).toBe(1);
    // 8 of 8 Down: the milestones were part of the opening, not updates of it.
    expect(count("provider_incident_updated")).toBe(0);
    // The index refuses a second unresolved incident even if the lock were bypassed.
    await expect(
      deps.db.$executeRaw`INSERT INTO provider_incidents (id, project_id, organization_id, provider, status,
        threshold_since, last_down_at, updated_at)
        SELECT 'inc_x', project_id, organization_id, provider, 'open', now(), now(), now()
        FROM provider_incidents WHERE project_id = ${p.id}`,
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it("flapping under the minimum duration pages nothing; holding past it opens with the first crossing's time", async () => {
    const { project: p } = await project({ minS: 30 });
    const t0 = Date.now() - 10_000;
    await fleet(p.id, "closed", 0, 4, t0);
    for (let round = 0; round < 3; round++) {
      await fleet(p.id, "open", 0, 4, t0 + 1_000 + round * 2_000);
      await fleet(p.id, "closed", 0, 4, t0 + 2_000 + round * 2_000);
    }
    await sweepProviderIncidents(deps, { now: later(60_000), projectIds: [p.id] });
    let { count } = await typesOf(p.id);
    expect(count("circuit_breaker_opened")).toBe(12);
    expect(count("provider_incident_opened")).toBe(0);
    expect(await deps.db.providerIncident.count({ where: { projectId: p.id } })).toBe(0);

    // Held: pending until the minimum duration, then opened (dated from when it started).
    await fleet(p.id, "open", 0, 4, t0 + 9_000);
    const pending = await deps.db.providerIncident.findFirstOrThrow({ where: { projectId: p.id } });
    expect(pending.status).toBe("pending");
    const r = await evaluateProviderIncident(deps, {
      projectId: p.id,
      provider: "openai",
      now: later(31_000),
    });
    expect(r.change).toBe("opened");
    ({ count } = await typesOf(p.id));
    expect(count("provider_incident_opened")).toBe(1);
    const inc = await deps.db.providerIncident.findUniqueOrThrow({ where: { id: pending.id } });
    expect(inc.openedAt?.getTime()).toBe(pending.thresholdSince.getTime());
  });

  it("instances going stale do not keep an incident open", async () => {
    const { project: p } = await project({ quietS: 10 });
    await fleet(p.id, "open", 0, 3);
    expect(await deps.db.providerIncident.count({ where: { projectId: p.id, status: "open" } })).toBe(1);
    // The instances stop reporting while Down: once stale they no longer count, and the sweep
    // resolves the incident a quiet period later — without any report arriving.
    const staleAt = later((STALE_S + 1) * 1000);
    await closeStaleEpisodes(deps, { now: staleAt, projectIds: [p.id] });
    await sweepProviderIncidents(deps, { now: staleAt, projectIds: [p.id] });
    expect(await deps.db.providerIncident.count({ where: { projectId: p.id, status: "open" } })).toBe(1);
    const r = await sweepProviderIncidents(deps, {
      now: new Date(staleAt.getTime() + 10_000),
      projectIds: [p.id],
    });
    expect(r.resolved).toBe(1);
    const { count } = await typesOf(p.id);
    expect(count("provider_incident_resolved")).toBe(1);
    expect(count("circuit_breaker_closed")).toBe(3);
  });

  it("a small fleet opens on one Down instance; a project threshold raises the bar", async () => {
    const { project: small } = await project();
    await fleet(small.id, "closed", 0, 2);
    await fleet(small.id, "open", 0, 1, Date.now() + 10);
    expect(await deps.db.providerIncident.count({ where: { projectId: small.id } })).toBe(1);

    const { project: strict } = await project({ thresholdPct: 60 });
    await fleet(strict.id, "closed", 0, 10);
    await fleet(strict.id, "open", 0, 5, Date.now() + 50);
    expect(await deps.db.providerIncident.count({ where: { projectId: strict.id } })).toBe(0);
    await fleet(strict.id, "open", 5, 6, Date.now() + 50);
    expect(await deps.db.providerIncident.count({ where: { projectId: strict.id } })).toBe(1);
  });
});
