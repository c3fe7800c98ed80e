import { createOrganization, createProject } from "@breakwater/core";
import { type PrivateRedis, startPrivateRedis } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterValue } from "../src/metrics";
import { type RunningWorker, startWorker } from "../src/start-worker";
import { harnessConfig, producerDeps, sysCtx } from "./worker-harness";

const DAY = 86_400_000;
let redis: PrivateRedis;
let worker: RunningWorker | undefined;
let deps: ReturnType<typeof producerDeps>;
let config: ReturnType<typeof harnessConfig>;

beforeAll(async () => {
  redis = await startPrivateRedis();
  config = harnessConfig(redis.url, {
    WORKER_HEALTH_PORT: "0",
    LOG_LEVEL: "silent",
    BREAKER_SNAPSHOT_RETENTION_DAYS: "2",
  });
  deps = producerDeps(config);
});
afterAll(async () => {
  await worker?.close();
  await deps?.close();
  await redis?.stop();
});

describe("breaker-prune job", () => {
  it("runs in the worker: snapshots silent past BREAKER_SNAPSHOT_RETENTION_DAYS go, and the metric counts them", async () => {
    const org = await createOrganization(sysCtx(deps), { name: `Churn ${Date.now()}`, planSlug: "team" });
    const project = await createProject(sysCtx(deps), { organizationId: org.id, name: "churn" });
    const at = (days: number) => new Date(Date.now() - days * DAY);
    const snapshot = (id: string, days: number) => ({
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: id,
      state: "closed" as const,
      failureCount: 0,
      successCount: 1,
      reportedAt: at(days),
      receivedAt: at(days),
      firstSeenAt: at(days),
      stateSince: at(days),
    });
    // Serverless cold starts: yesterday's instance ids, and ones silent for three days.
    await deps.db.breakerSnapshot.createMany({
      data: [
        snapshot("lambda-today", 0),
        snapshot("lambda-1d", 1),
        ...Array.from({ length: 25 }, (_, i) => snapshot(`lambda-3d-${i}`, 3)),
      ],
    });

    // A scheduler with `every` runs its first job at once: starting the worker prunes.
    worker = await startWorker(config, { drainDelaySeconds: 1, shutdownGraceMs: 1_000 });
    const left = async () =>
      (await deps.db.breakerSnapshot.findMany({ where: { projectId: project.id } }))
        .map((s) => s.sdkInstanceId)
        .sort();
    await expect.poll(left, { timeout: 20_000, interval: 250 }).toEqual(["lambda-1d", "lambda-today"]);
    // The job counts its deletions when it returns, after the other projects and the transitions.
    const metrics = worker.metrics;
    await expect
      .poll(() => counterValue(metrics.snapshotsPruned, {}), { timeout: 20_000, interval: 250 })
      .toBeGreaterThanOrEqual(25);
    const text = await worker.metrics.registry.metrics();
    expect(text).toMatch(/breakwater_breaker_snapshots_pruned_total \d+/);
  });
});
