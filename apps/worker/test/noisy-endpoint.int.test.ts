import { setTimeout as sleep } from "node:timers/promises";
import {
  createOrganization,
  createProject,
  createWebhookEndpoint,
  recordBreakerReport,
} from "@breakwater/core";
import {
  type PrivateRedis,
  startPrivateRedis,
  startWebhookReceiver,
  type WebhookReceiver,
} from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningWorker, startWorker } from "../src/start-worker";
import { harnessConfig, producerDeps, sysCtx } from "./worker-harness";

let redis: PrivateRedis;
let worker: RunningWorker;
let deps: ReturnType<typeof producerDeps>;
let hanging: WebhookReceiver;
let healthy: WebhookReceiver;

beforeAll(async () => {
  redis = await startPrivateRedis();
  hanging = await startWebhookReceiver({ port: 0, verify: () => true, behaviour: () => "hang" });
  healthy = await startWebhookReceiver({ port: 0, verify: () => true });
  // Few slots, so that without per-endpoint lanes the hanging endpoint's deliveries fill them all.
  const config = harnessConfig(redis.url, {
    WEBHOOK_CONCURRENCY: "8",
    WORKER_HEALTH_PORT: "0",
    LOG_LEVEL: "silent",
  });
  deps = producerDeps(config);
  worker = await startWorker(config, { drainDelaySeconds: 1, shutdownGraceMs: 1_000 });
});
afterAll(async () => {
  await worker?.close();
  await deps?.close();
  await hanging?.close();
  await healthy?.close();
  await redis?.stop();
});

/** A tenant with one endpoint at `url`; `fire()` records a breaker opening that fires one event. */
async function tenant(name: string, url: string) {
  const sys = sysCtx(deps);
  const org = await createOrganization(sys, { name: `${name} ${Date.now()}`, planSlug: "team" });
  const project = await createProject(sys, { organizationId: org.id, name: "svc" });
  await createWebhookEndpoint(sys, { organizationId: org.id, url });
  let n = 0;
  return async () => {
    const at = Date.now();
    const r = await recordBreakerReport(deps, {
      projectId: project.id,
      provider: "openai",
      sdkInstanceId: `${name}-${++n}`,
      state: "open",
      failureCount: 5,
      successCount: 0,
      reportedAt: new Date(at),
    });
    expect(r.eventIds).toHaveLength(1);
    return { eventId: r.eventIds[0]!, at };
  };
}

describe("a noisy tenant", () => {
  it("an endpoint hanging 15 s on every call does not delay another tenant's deliveries (p95 < 1 s)", async () => {
    const fireSlow = await tenant("slow", hanging.url);
    const fireFast = await tenant("fast", healthy.url);
    // The slow tenant's burst is queued first: more events than the worker has slots.
    for (let i = 0; i < 16; i++) await fireSlow();
    await vi.waitFor(() => expect(hanging.received.length).toBeGreaterThan(0), { timeout: 5_000 });
    const sent: { eventId: string; at: number }[] = [];
    for (let i = 0; i < 20; i++) {
      sent.push(await fireFast());
      if (i % 4 === 0) await fireSlow(); // the slow tenant keeps sending meanwhile
      await sleep(100);
    }
    await vi.waitFor(() => expect(healthy.received.length).toBeGreaterThanOrEqual(sent.length), {
      timeout: 20_000,
      interval: 50,
    });
    const latencies = sent
      .map((s) => healthy.received.find((r) => r.webhookId === s.eventId)!.receivedAt - s.at)
      .sort((a, b) => a - b);
    const p95 = latencies[Math.ceil(latencies.length * 0.95) - 1]!;
    expect(p95, `healthy latencies ${latencies.join(", ")} ms`).toBeLessThan(1_000);
    // The hanging endpoint held at most its lanes: never the whole worker.
    expect(hanging.received.length).toBeLessThanOrEqual(8);
  }, 60_000);
});
