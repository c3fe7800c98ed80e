import { createOrganization, newId } from "@breakwater/core";
import { createRedis, QueueSet } from "@breakwater/queue";
import { type PrivateRedis, startPrivateRedis } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningWorker, startWorker } from "../src/start-worker";
import { harnessConfig, producerDeps, sysCtx } from "./worker-harness";

const DAY = 86_400_000;
let redis: PrivateRedis;
let worker: RunningWorker | undefined;
let deps: ReturnType<typeof producerDeps>;
let config: ReturnType<typeof harnessConfig>;

beforeAll(async () => {
  redis = await startPrivateRedis();
  config = harnessConfig(redis.url, { WORKER_HEALTH_PORT: "0", LOG_LEVEL: "silent" });
  deps = producerDeps(config);
});
afterAll(async () => {
  await worker?.close();
  await deps?.close();
  await redis?.stop();
});

describe("audit-retention job", () => {
  it("is scheduled hourly and, run by the worker, trims a log to its plan's audit_log_days", async () => {
    const org = await createOrganization(sysCtx(deps), { name: `Retained ${Date.now()}`, planSlug: "free" });
    const at = (days: number) => new Date(Date.now() - days * DAY);
    const row = (days: number) => ({
      id: newId("aud", at(days).getTime()),
      organizationId: org.id,
      actorType: "system",
      actorId: "test",
      action: `project.age_${days}`,
      targetType: "project",
      targetId: "x",
      createdAt: at(days),
    });
    await deps.db.auditEvent.createMany({ data: [row(3), row(8), row(30)] });
    // The management API's stored idempotent answers: one past its 24 hours, one still replayable.
    const idem = (key: string, hoursAgo: number) => ({
      keyId: `mk_${org.id}`,
      idempotencyKey: key,
      requestHash: "h",
      status: 201,
      body: "{}",
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
    });
    await deps.db.managementIdempotency.createMany({ data: [idem("old", 25), idem("fresh", 1)] });

    // A scheduler with `every` runs its first job at once, so starting the worker applies retention.
    worker = await startWorker(config, { drainDelaySeconds: 1, shutdownGraceMs: 1_000 });
    const connection = createRedis(config, "producer", "audit-retention-test");
    const queues = new QueueSet(config, connection);
    try {
      // Schedulers are registered once the worker's Redis connection is ready.
      await expect
        .poll(
          async () => (await queues.get("audit-retention").getJobSchedulers()).map((s) => [s.key, s.every]),
          {
            timeout: 10_000,
          },
        )
        .toEqual([["audit-retention", 3_600_000]]);
    } finally {
      await queues.close();
      connection.disconnect();
    }
    const left = async () =>
      (
        await deps.db.auditEvent.findMany({
          where: { organizationId: org.id, action: { startsWith: "project.age_" } },
        })
      )
        .map((r) => r.action)
        .sort();
    await expect.poll(left, { timeout: 20_000, interval: 250 }).toEqual(["project.age_3"]);
    await expect
      .poll(async () =>
        (await deps.db.managementIdempotency.findMany({ where: { keyId: `mk_${org.id}` } })).map(
          (r) => r.idempotencyKey,
        ),
      )
      .toEqual(["fresh"]);
    // The organization's own creation row (today) is kept.
    expect(
      await deps.db.auditEvent.count({ where: { organizationId: org.id, action: "organization.create" } }),
    ).toBe(1);
  });
});
