import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakerPath, createTenant, type Harness, post, startHarness } from "./testing/harness";

/**
 * An outage as a fleet reports it: every instance of one project opens its `openai` breaker
 * within a second, then closes it again. The full-size version (20,000 instances) is the bench's
 * (`npm run bench:fleet -- --burst`); this one is the size CI runs, with the same checks.
 */
const INSTANCES = 400;
const SENDERS = 32;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("an outage burst of breaker reports", () => {
  it("records every transition once, fires one opened and one closed event per instance, and one incident", async () => {
    const t = await createTenant(h, { plan: "team" });
    await h.db.project.update({
      where: { id: t.projectId },
      data: { incidentThresholdPct: null, incidentMinDurationSecs: 0, incidentQuietSecs: 0 },
    });
    const pods = Array.from({ length: INSTANCES }, (_, i) => `pod-${String(i).padStart(4, "0")}`);
    let clock = Date.now() - 60_000;
    /** Every instance reports `state` once, SENDERS at a time; the answers' latencies. */
    const wave = async (state: "closed" | "open") => {
      clock += 1_000;
      const at = clock;
      const latencies: number[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < pods.length) {
            const pod = pods[next++]!;
            const started = performance.now();
            const res = await post(
              h,
              breakerPath(t.projectId),
              {
                provider: "openai",
                state,
                failure_count: state === "open" ? 5 : 0,
                success_count: state === "open" ? 0 : 3,
                reported_at: new Date(at).toISOString(),
                sdk_instance_id: pod,
              },
              t.key,
            );
            expect(res.status).toBe(202);
            latencies.push(performance.now() - started);
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      return latencies[Math.floor(latencies.length * 0.99)]!;
    };

    await wave("closed"); // first reports
    const openP99 = await wave("open");
    const closeP99 = await wave("closed");
    // The CI machine is shared: the bench holds the 500 ms figure; this bounds a pathology.
    expect(openP99).toBeLessThan(3_000);
    expect(closeP99).toBeLessThan(3_000);

    const transitions = await h.db.breakerTransition.groupBy({
      by: ["fromState", "toState"],
      where: { projectId: t.projectId },
      _count: true,
    });
    expect(Object.fromEntries(transitions.map((x) => [`${x.fromState}->${x.toState}`, x._count]))).toEqual({
      "null->closed": INSTANCES,
      "closed->open": INSTANCES,
      "open->closed": INSTANCES,
    });

    const events = await h.db.webhookEvent.findMany({
      where: { projectId: t.projectId },
      select: { type: true, deliverable: true, payload: true, outbox: { select: { eventId: true } } },
    });
    const byType = (type: string) => events.filter((e) => e.type === type);
    for (const type of ["circuit_breaker_opened", "circuit_breaker_closed"]) {
      const list = byType(type);
      expect(list).toHaveLength(INSTANCES);
      const instances = new Set(
        list.map((e) => (e.payload as { data: { sdk_instance_id: string } }).data.sdk_instance_id),
      );
      expect(instances.size).toBe(INSTANCES);
      expect(list.every((e) => e.deliverable && e.outbox !== null)).toBe(true);
    }
    expect(byType("provider_incident_opened")).toHaveLength(1);
    await expect
      .poll(
        async () =>
          await h.db.webhookEvent.count({
            where: { projectId: t.projectId, type: "provider_incident_resolved" },
          }),
        {
          timeout: 10_000,
        },
      )
      .toBe(1);
    const incidents = await h.db.providerIncident.findMany({ where: { projectId: t.projectId } });
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.resolvedAt).not.toBeNull();

    const episodes = await h.db.breakerEpisode.findMany({ where: { projectId: t.projectId } });
    expect(episodes).toHaveLength(INSTANCES);
    expect(episodes.every((e) => e.closedAt !== null && e.resolution === "recovered")).toBe(true);
    const snapshots = await h.db.breakerSnapshot.findMany({ where: { projectId: t.projectId } });
    expect(snapshots.every((s) => s.state === "closed" && s.openEpisodeId === null)).toBe(true);
    process.stdout.write(
      `burst of ${INSTANCES}: open p99 ${openP99.toFixed(0)} ms, close p99 ${closeP99.toFixed(0)} ms\n`,
    );
  }, 60_000);
});
