import { randomUUID } from "node:crypto";
import { createOrganization, createProject, getUsageOverview, newId } from "@breakwater/core";
import { startPrivateRedis } from "@breakwater/queue/testing";
import { describe, expect, it } from "vitest";
import { harnessConfig, producerDeps, spawnWorker, sysCtx } from "./worker-harness";

const DAY = 86_400_000;

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("usage jobs in the worker", () => {
  it("the rollup scheduler brings new and late events to the usage overview; retention then deletes only raw events", {
    timeout: 120_000,
  }, async () => {
    const redis = await startPrivateRedis();
    const config = harnessConfig(redis.url);
    const deps = producerDeps(config);
    const worker = await spawnWorker(config, undefined, {
      USAGE_ROLLUP_EVERY_MS: "1000",
      USAGE_RETENTION_EVERY_MS: "2000",
    });
    try {
      const sys = sysCtx(deps);
      // Team keeps 90 days, so retention (every 2 s here) cannot overtake the late event below
      // before the scheduler has rolled it up; a 7-day override later makes it expire.
      const org = await createOrganization(sys, { name: `Usage jobs ${Date.now()}`, planSlug: "team" });
      const project = await createProject(sys, { organizationId: org.id, name: "svc" });
      const now = Date.now();
      const event = (ts: number, i: number) => ({
        projectId: project.id,
        callId: randomUUID(),
        timestamp: new Date(ts - i),
        sdkInstanceId: "sdk-1",
        model: "gpt-5.5",
        provider: "openai",
        status: "success",
        inputTokens: 10,
        outputTokens: 5,
        latencyMs: 120,
        isModelFallback: false,
        agentRunId: "run-1",
        costUsd: "0.01",
        priced: true,
      });
      const ctx = { ...sys, organizationId: org.id };
      const from = new Date(now - 10 * DAY).toISOString().slice(0, 10);
      const to = new Date(now).toISOString().slice(0, 10);
      const calls = async () =>
        (await getUsageOverview(ctx, { projectId: project.id, from, to })).totals.calls;

      // New events, then a late one for an hour ten days ago: both reach the overview by themselves.
      await deps.db.metadataEvent.createMany({ data: [0, 1, 2].map((i) => event(now - 1_000, i)) });
      await waitFor(
        "new events in the rollups",
        async () => ((await calls()) === 3 ? true : undefined),
        20_000,
      );
      await deps.db.metadataEvent.createMany({ data: [0, 1].map((i) => event(now - 10 * DAY, i)) });
      await waitFor(
        "late events in the rollups",
        async () => ((await calls()) === 5 ? true : undefined),
        20_000,
      );

      // Rolled up long ago, as far as retention can tell, and the organization now keeps 7 days:
      // the ten-day-old raw events go, rollups stay.
      await deps.db.entitlementOverride.create({
        data: {
          id: newId("ovr"),
          organizationId: org.id,
          featureKey: "retention_days",
          value: 7,
          reason: "usage-jobs test: shorter retention",
        },
      });
      await deps.db.$executeRaw`UPDATE metadata_events SET received_at = received_at - interval '5 minutes'
        WHERE project_id = ${project.id}`;
      await waitFor(
        "retention",
        async () =>
          (await deps.db.metadataEvent.count({ where: { projectId: project.id } })) === 3 ? true : undefined,
        // Every 2 s here, but behind the worker's other jobs on a machine whose two cores are full
        // (npm test's two lanes on a slow VM took 20 s): room enough not to fail for that.
        45_000,
      );
      expect(await calls()).toBe(5);
      const floor = await deps.db.usageRetentionFloor.findUniqueOrThrow({ where: { projectId: project.id } });
      expect(floor.retainedFrom.getTime()).toBeGreaterThan(now - 7 * DAY - 3_600_000);
    } finally {
      expect(await worker.stop("SIGTERM")).toBe(0);
      await deps.close();
      await redis.stop();
    }
  });

  it("the event-partitions scheduler creates the partitions of the coming week", {
    timeout: 60_000,
  }, async () => {
    const redis = await startPrivateRedis();
    const config = harnessConfig(redis.url);
    const deps = producerDeps(config);
    // The last day of the week ahead: nothing is stored there yet, so its partition can go.
    const day = new Date(Math.floor(Date.now() / DAY) * DAY + 7 * DAY);
    const name = `metadata_events_p${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
    const exists = async () =>
      (await deps.db.$queryRaw<{ e: boolean }[]>`SELECT to_regclass(${name}) IS NOT NULL AS e`)[0]?.e;
    await deps.db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`);
    expect(await exists()).toBe(false);
    const worker = await spawnWorker(config, undefined, { USAGE_RETENTION_EVERY_MS: "2000" });
    try {
      await waitFor("the partition a week ahead", async () => ((await exists()) ? true : undefined), 30_000);
    } finally {
      expect(await worker.stop("SIGTERM")).toBe(0);
      await deps.close();
      await redis.stop();
    }
  });
});
