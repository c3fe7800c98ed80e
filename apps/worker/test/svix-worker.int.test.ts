import { createOrganization, createProject, recordBreakerReport } from "@breakwater/core";
import {
  type FakeSvix,
  type PrivateRedis,
  startFakeSvix,
  startPrivateRedis,
} from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterValue } from "../src/metrics";
import { type RunningWorker, startWorker } from "../src/start-worker";
import { harnessConfig, producerDeps, sysCtx } from "./worker-harness";

let redis: PrivateRedis;
let svix: FakeSvix;
let worker: RunningWorker;
let deps: ReturnType<typeof producerDeps>;

beforeAll(async () => {
  redis = await startPrivateRedis();
  svix = await startFakeSvix(0);
  const config = harnessConfig(redis.url, {
    SVIX_API_KEY: "testsk_fake",
    SVIX_SERVER_URL: svix.url,
    WORKER_HEALTH_PORT: "0",
    LOG_LEVEL: "silent",
  });
  deps = producerDeps(config);
  worker = await startWorker(config, { drainDelaySeconds: 1 });
});
afterAll(async () => {
  await worker.close();
  await deps.close();
  await svix.close();
  await redis.stop();
});

/** A new project whose Svix application answers `statuses` first, then an open breaker in it. */
async function openBreaker(...statuses: number[]) {
  const sys = sysCtx(deps);
  const org = await createOrganization(sys, { name: `Svix ${Date.now()}`, planSlug: "solo" });
  const project = await createProject(sys, { organizationId: org.id, name: "svc" });
  svix.queueMessageStatuses(project.id, ...statuses);
  const r = await recordBreakerReport(deps, {
    projectId: project.id,
    provider: "openai",
    sdkInstanceId: "i-1",
    state: "open",
    failureCount: 5,
    successCount: 0,
    reportedAt: new Date(),
  });
  return { projectId: project.id, eventId: r.eventIds[0]! };
}

async function until(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("worker with the Svix backend", () => {
  it("registers event types at start", async () => {
    await until(async () => svix.calls.filter((c) => c.path === "/api/v1/event-type").length >= 3, 5_000);
    const names = svix.calls
      .filter((c) => c.path === "/api/v1/event-type")
      .map((c) => (c.body as { name: string }).name);
    expect(names).toEqual(["circuit_breaker_opened", "circuit_breaker_closed", "budget_threshold_crossed"]);
  });

  it("retries Svix 500 and 429 with BullMQ backoff until accepted, one idempotency key throughout", async () => {
    const { projectId, eventId } = await openBreaker(500, 429);
    await until(
      async () => (await deps.db.webhookOutbox.findUnique({ where: { eventId } }))?.outcome === "delivered",
      15_000,
    );
    const calls = svix.calls.filter((c) => c.path === `/api/v1/app/${projectId}/msg`);
    expect(calls.map((c) => c.status)).toEqual([500, 429, 202]);
    expect(calls.every((c) => c.headers["idempotency-key"] === eventId)).toBe(true);
    expect(
      await counterValue(worker.metrics.deliveries, { backend: "svix", outcome: "retry" }),
    ).toBeGreaterThanOrEqual(2);
  });

  it("does not retry a Svix 4xx", async () => {
    const { projectId, eventId } = await openBreaker(400);
    await until(
      async () => (await deps.db.webhookOutbox.findUnique({ where: { eventId } }))?.outcome === "rejected",
      10_000,
    );
    await new Promise((r) => setTimeout(r, 2_500)); // longer than the first backoff step
    expect(svix.calls.filter((c) => c.path === `/api/v1/app/${projectId}/msg`)).toHaveLength(1);
  });
});
