import {
  BREAKER_EVENT_SAMPLES,
  createOrganization,
  createProject,
  enqueueWebhookDeliveries,
  newId,
  recordBreakerReport,
  recordWebhookEvent,
  WEBHOOK_EVENT_TYPES,
} from "@breakwater/core";
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

/** Messages Svix received for a project's breaker events (its provider incidents are messages of their own). */
const breakerMessages = (projectId: string) =>
  svix.calls.filter(
    (c) =>
      c.path === `/api/v1/app/${projectId}/msg` &&
      String((c.body as { eventType?: string } | null)?.eventType).startsWith("circuit_breaker_"),
  );

/** A new project whose Svix application answers `statuses` first, then an open breaker in it. */
async function openBreaker(...statuses: number[]) {
  const sys = sysCtx(deps);
  const org = await createOrganization(sys, { name: `Svix ${Date.now()}`, planSlug: "solo" });
  const project = await createProject(sys, { organizationId: org.id, name: "svc" });
  // Four healthy instances first: one Down of five stays under the default incident threshold
  // (25 %), so the project's Svix application receives the breaker event and nothing else.
  for (let i = 2; i <= 5; i++) {
    await recordBreakerReport(deps, {
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: `i-${i}`,
      state: "closed",
      failureCount: 0,
      successCount: 1,
      reportedAt: new Date(),
    });
  }
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
    const registered = () => svix.calls.filter((c) => c.path === "/api/v1/event-type");
    await until(async () => registered().length >= WEBHOOK_EVENT_TYPES.length, 5_000);
    const names = registered().map((c) => (c.body as { name: string }).name);
    expect(names).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(names).toEqual(expect.arrayContaining(["provider_incident_opened", "provider_incident_resolved"]));
  });

  it("retries Svix 500 and 429 with BullMQ backoff until accepted, one idempotency key throughout", async () => {
    const { projectId, eventId } = await openBreaker(500, 429);
    await until(
      async () => (await deps.db.webhookOutbox.findUnique({ where: { eventId } }))?.outcome === "delivered",
      15_000,
    );
    const calls = breakerMessages(projectId);
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
    expect(breakerMessages(projectId)).toHaveLength(1);
  });

  it("a burst of 300 events reaches Svix with many calls in flight, each message once", async () => {
    const sys = sysCtx(deps);
    const org = await createOrganization(sys, { name: `Svix burst ${Date.now()}`, planSlug: "solo" });
    const project = await createProject(sys, { organizationId: org.id, name: "burst" });
    // A distant Svix: 100 ms per message create. One call at a time would take 30 s.
    svix.delayMessages(100);
    try {
      const sample = BREAKER_EVENT_SAMPLES.circuit_breaker_opened;
      const ids = Array.from({ length: 300 }, () => newId("evt"));
      const now = new Date();
      await deps.db.$transaction(async (tx) => {
        for (const id of ids) {
          await recordWebhookEvent(tx, {
            id,
            organizationId: org.id,
            projectId: project.id,
            episodeId: newId("ep"),
            payload: { ...sample, data: { ...sample.data, event_id: id, project_id: project.id } },
            deliverable: true,
            now,
          });
        }
      });
      const started = Date.now();
      await enqueueWebhookDeliveries(deps, ids);
      const delivered = async () =>
        (await deps.db.webhookOutbox.count({ where: { eventId: { in: ids }, outcome: "delivered" } })) ===
        ids.length;
      await until(delivered, 20_000);
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `Svix burst: 300 messages at 100 ms each in ${seconds.toFixed(1)} s, ${svix.maxMessagesInFlight()} in flight at most`,
      );
      const calls = breakerMessages(project.id);
      expect(calls).toHaveLength(300);
      expect(new Set(calls.map((c) => c.headers["idempotency-key"]))).toEqual(new Set(ids));
      expect(svix.maxMessagesInFlight()).toBeGreaterThanOrEqual(32);
      expect(seconds).toBeLessThan(10);
    } finally {
      svix.delayMessages(0);
    }
  }, 30_000);
});
