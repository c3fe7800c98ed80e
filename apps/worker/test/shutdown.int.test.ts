import {
  createOrganization,
  createProject,
  createWebhookEndpoint,
  recordBreakerReport,
} from "@breakwater/core";
import { closeRedis, createRedis, queuePrefix } from "@breakwater/queue";
import { startPrivateRedis, startWebhookReceiver } from "@breakwater/queue/testing";
import { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { harnessConfig, producerDeps, spawnWorker, sysCtx } from "./worker-harness";

/** A breaker that opens in a fresh project: one webhook event to deliver to `url`. */
async function openBreaker(deps: ReturnType<typeof producerDeps>, url: string, name: string) {
  const sys = sysCtx(deps);
  const org = await createOrganization(sys, { name: `${name} ${Date.now()}`, planSlug: "team" });
  const project = await createProject(sys, { organizationId: org.id, name: "svc" });
  await createWebhookEndpoint(sys, { organizationId: org.id, url });
  return {
    project,
    open: () =>
      recordBreakerReport(deps, {
        projectId: project.id,
        provider: "openai",
        sdkInstanceId: "i-1",
        state: "open",
        failureCount: 5,
        successCount: 0,
        reportedAt: new Date(),
      }),
  };
}

/** How many of `project`'s webhooks the receiver got; throws when one came twice. */
function sentOnce(received: { webhookId: string; body: string }[], project: string): number {
  const ids = received.filter((r) => r.body.includes(project)).map((r) => r.webhookId);
  expect(new Set(ids).size).toBe(ids.length);
  return ids.length;
}

describe("worker shutdown", () => {
  it("SIGTERM: idle worker exits 0 at once; a delivery in flight finishes first, sent once", {
    timeout: 60_000,
  }, async () => {
    const redis = await startPrivateRedis();
    // Slow only for this run's project: leftovers of earlier runs in the shared test database are
    // retried by any worker and must not make the "idle" worker busy.
    let slowFor = "none";
    const receiver = await startWebhookReceiver({
      port: 0,
      verify: () => true,
      behaviour: ({ body }) => (body.includes(slowFor) ? { status: 200, delayMs: 1_500 } : { status: 200 }),
    });
    const config = harnessConfig(redis.url);
    const deps = producerDeps(config);
    try {
      let worker = await spawnWorker(config);
      let t = Date.now();
      expect(await worker.stop("SIGTERM")).toBe(0);
      const idleStop = Date.now() - t;
      // Within the drain's bound (10 s). Nothing to wait for, but closing the queues and connections
      // takes the machine's time: 3.07 s on a loaded 2-core CI machine, 6.3 s on a slower VM with
      // both cores full of npm test's lanes.
      expect(idleStop).toBeLessThan(10_000);

      worker = await spawnWorker(config);
      const { project, open } = await openBreaker(deps, receiver.url, "Drain");
      slowFor = project.id;
      await open();
      // The delivery is on its way: the receiver answers it 1.5 s from now.
      await receiver.waitFor((r) => r.some((x) => x.body.includes(project.id)), 10_000);
      t = Date.now();
      const code = await worker.stop("SIGTERM");
      const busyStop = Date.now() - t;
      console.log(`shutdown: idle ${idleStop} ms; with a delivery in flight ${busyStop} ms (exit ${code})`);
      expect(code).toBe(0);
      expect(busyStop).toBeLessThan(10_000);
      const deliveries = await deps.db.webhookDelivery.findMany({
        where: { event: { projectId: project.id } },
      });
      // The breaker's event and its provider incident's: each delivered, and sent exactly once.
      expect(deliveries.length).toBeGreaterThanOrEqual(1);
      expect(deliveries.every((d) => d.status === "succeeded")).toBe(true);
      expect(sentOnce(receiver.received, project.id)).toBe(deliveries.length);
      // Nothing is left running.
      expect((await deps.jobs!.counts("webhook-deliver")).active).toBe(0);
    } finally {
      await receiver.close();
      await deps.close();
      await redis.stop();
    }
  });

  it("SIGTERM with a delivery that outlasts SHUTDOWN_TIMEOUT_MS: exits in time, the job back in its queue", {
    timeout: 60_000,
  }, async () => {
    const redis = await startPrivateRedis();
    let hangFor = "none";
    const receiver = await startWebhookReceiver({
      port: 0,
      verify: () => true,
      behaviour: ({ body }) => (body.includes(hangFor) ? "hang" : { status: 200 }),
    });
    const config = harnessConfig(redis.url);
    const deps = producerDeps(config);
    try {
      const worker = await spawnWorker(config, undefined, { SHUTDOWN_TIMEOUT_MS: "4000" });
      const { project, open } = await openBreaker(deps, receiver.url, "Hang");
      hangFor = project.id;
      await open();
      // The delivery is now stuck on the receiver.
      await receiver.waitFor((r) => r.some((x) => x.body.includes(project.id)), 10_000);
      const t = Date.now();
      const code = await worker.stop("SIGTERM");
      const busyStop = Date.now() - t;
      console.log(`shutdown with a hanging delivery: ${busyStop} ms (exit ${code})`);
      // 2 s for active jobs (4 s less the 3 s kept for closing, at least half), then it lets go.
      expect(busyStop).toBeGreaterThanOrEqual(1_900);
      expect(busyStop).toBeLessThan(4_500);
      expect(code).toBe(1);
      expect(worker.logs.join("")).toMatch(/active jobs returned to their queues/);
      // Returned at once, not left locked for the stall check: waiting for the next worker.
      const counts = await deps.jobs!.counts("webhook-deliver");
      expect(counts.active).toBe(0);
      // Not lost: each delivery is still pending, its job waiting, and it was sent (unanswered) once.
      const deliveries = await deps.db.webhookDelivery.findMany({
        where: { event: { projectId: project.id } },
      });
      expect(deliveries.length).toBeGreaterThanOrEqual(1);
      expect(deliveries.every((d) => d.status === "pending")).toBe(true);
      // Each one's job waits for the next worker. (Only this project's jobs are asked for: the
      // worker's outbox sweep also queues earlier tests' leftovers from the shared database.)
      const conn = createRedis({ REDIS_URL: redis.url }, "worker");
      const queue = new Queue("webhook-deliver", {
        connection: conn,
        prefix: queuePrefix(config, "webhook-deliver"),
      });
      try {
        const states = await Promise.all(deliveries.map((d) => queue.getJobState(d.eventId)));
        expect(states.every((s) => s === "waiting" || s === "prioritized")).toBe(true);
      } finally {
        await queue.close();
        await closeRedis(conn);
      }
      expect(sentOnce(receiver.received, project.id)).toBe(deliveries.length);
    } finally {
      await receiver.close();
      await deps.close();
      await redis.stop();
    }
  });
});
