import {
  BREAKER_EVENT_TYPES,
  createOrganization,
  createProject,
  createWebhookEndpoint,
  newId,
  parseBreakerEvent,
} from "@breakwater/core";
import {
  type PrivateRedis,
  type ReceivedWebhook,
  startPrivateRedis,
  startWebhookReceiver,
  type WebhookReceiver,
} from "@breakwater/queue/testing";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FleetKey, fleetScript, playRounds } from "./fleet-script";
import { harnessConfig, producerDeps, spawnWorker, sysCtx, type WorkerProcess } from "./worker-harness";

const secretsByProject = new Map<string, string>();
let redis: PrivateRedis;
let receiver: WebhookReceiver;

beforeAll(async () => {
  redis = await startPrivateRedis();
  receiver = await startWebhookReceiver({
    port: 0,
    // A customer's receiver: every request must verify with svix's Webhook.verify.
    verify: (body, headers) => {
      const projectId = (JSON.parse(body) as { data: { project_id: string } }).data.project_id;
      const secret = secretsByProject.get(projectId);
      if (!secret) throw new Error(`unknown project ${projectId}`);
      return new Webhook(secret).verify(body, headers);
    },
  });
});
afterAll(async () => {
  await receiver.close();
  await redis.stop();
});

async function seedFleet(deps: ReturnType<typeof producerDeps>, planSlug = "team", withEndpoint = true) {
  const sys = sysCtx(deps);
  const suffix = newId("res").slice(-8);
  const org = await createOrganization(sys, { name: `Fleet ${suffix}`, planSlug });
  const a = await createProject(sys, { organizationId: org.id, name: `A-${suffix}` });
  const b =
    planSlug === "free" ? a : await createProject(sys, { organizationId: org.id, name: `B-${suffix}` });
  if (withEndpoint) {
    // The breaker pair only: this suite counts per-instance events (incidents have their own suites).
    const { secret } = await createWebhookEndpoint(sys, {
      organizationId: org.id,
      url: receiver.url,
      eventTypes: [...BREAKER_EVENT_TYPES],
    });
    secretsByProject.set(a.id, secret);
    secretsByProject.set(b.id, secret);
  }
  const resolve = (key: string): FleetKey => {
    const [p, provider, inst] = key.split("/") as [string, string, string];
    return { projectId: p === "A" ? a.id : b.id, provider, sdkInstanceId: `${inst}-${suffix}` };
  };
  return { org, projectIds: [...new Set([a.id, b.id])], resolve, suffix };
}

type Fleet = Awaited<ReturnType<typeof seedFleet>>;

async function deliverableEvents(deps: ReturnType<typeof producerDeps>, fleet: Fleet) {
  return deps.db.webhookEvent.findMany({
    where: {
      projectId: { in: fleet.projectIds },
      deliverable: true,
      isTest: false,
      type: { in: [...BREAKER_EVENT_TYPES] },
    },
    orderBy: { createdAt: "asc" },
  });
}

const ofFleet = (fleet: Fleet) => (r: ReceivedWebhook) => {
  try {
    return fleet.projectIds.includes(
      (JSON.parse(r.body) as { data: { project_id: string } }).data.project_id,
    );
  } catch {
    return false;
  }
};

/**
 * The receiver got exactly the expected events: each event id as webhook-id, every request
 * verified, every opened paired with exactly one closed. A webhook-id may repeat only where an
 * earlier request was never answered (a worker killed mid-request) — an acknowledged message is
 * never sent again.
 */
async function assertExactlyOnce(
  deps: ReturnType<typeof producerDeps>,
  fleet: Fleet,
  expectedPairs: number,
  waitMs = 90_000,
) {
  // The dying instance's episode closes only once the stale sweep has seen it silent long enough.
  let events = await deliverableEvents(deps, fleet);
  for (let i = 0; i < 300 && events.length < expectedPairs * 2; i++) {
    await new Promise((r) => setTimeout(r, 100));
    events = await deliverableEvents(deps, fleet);
  }
  expect(events.filter((e) => e.type === "circuit_breaker_opened")).toHaveLength(expectedPairs);
  expect(events.filter((e) => e.type === "circuit_breaker_closed")).toHaveLength(expectedPairs);
  const mine = () => receiver.received.filter(ofFleet(fleet));
  await receiver.waitFor(
    () =>
      new Set(
        mine()
          .filter((r) => r.answered === 200)
          .map((r) => r.webhookId),
      ).size >= events.length,
    waitMs,
  );
  // Give a stray duplicate time to show up before counting.
  await new Promise((r) => setTimeout(r, 1_500));

  const got = mine();
  expect(got.every((r) => r.verified)).toBe(true);
  const byId = new Map<string, ReceivedWebhook[]>();
  for (const r of got) byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r]);
  expect([...byId.keys()].sort()).toEqual(events.map((e) => e.id).sort());
  const redelivered: string[] = [];
  for (const [id, rs] of byId) {
    expect(rs.filter((r) => r.answered === 200)).toHaveLength(1);
    expect(rs[rs.length - 1]?.answered).toBe(200);
    if (rs.length > 1) redelivered.push(id);
  }
  const payloads = [...byId.values()].map((rs) => parseBreakerEvent(JSON.parse(rs[0]!.body)));
  const episodes = new Map<string, string[]>();
  for (const p of payloads)
    episodes.set(p.data.episode_id, [...(episodes.get(p.data.episode_id) ?? []), p.type]);
  expect(episodes.size).toBe(expectedPairs);
  for (const types of episodes.values())
    expect(types.sort()).toEqual(["circuit_breaker_closed", "circuit_breaker_opened"]);
  // In order per episode: the closed message is acknowledged only after its opened one.
  const ackAt = new Map<string, number>();
  for (const [id, rs] of byId) ackAt.set(id, rs.find((r) => r.answered === 200)?.receivedAt ?? Number.NaN);
  for (const p of payloads.filter((x) => x.type === "circuit_breaker_closed")) {
    const opened = payloads.find(
      (x) => x.type === "circuit_breaker_opened" && x.data.episode_id === p.data.episode_id,
    );
    expect(ackAt.get(opened?.data.event_id ?? "")).toBeLessThanOrEqual(
      ackAt.get(p.data.event_id) ?? Number.NaN,
    );
  }
  return { payloads, redelivered, requests: got.length };
}

describe("scripted fleet → signed webhooks through the worker process", () => {
  it("delivers exactly the expected events once each, pairs every opened with one closed", {
    timeout: 120_000,
  }, async () => {
    const config = harnessConfig(redis.url, { BREAKER_STALE_SECONDS: "10" });
    const deps = producerDeps(config);
    const worker = await spawnWorker(config);
    try {
      const fleet = await seedFleet(deps);
      const { rounds, expectedPairs } = fleetScript();
      const t0 = Date.now() - 3_600_000;
      await playRounds(deps, rounds, fleet.resolve, t0);
      const r = await assertExactlyOnce(deps, fleet, expectedPairs);
      expect(r.redelivered).toEqual([]);
      expect(r.requests).toBe(expectedPairs * 2);
      const expired = r.payloads.filter(
        (p) => p.type === "circuit_breaker_closed" && p.data.resolution === "instance_expired",
      );
      expect(expired.map((p) => p.data.sdk_instance_id)).toEqual([`i1-${fleet.suffix}`]);
      expect(expired[0]?.data.provider).toBe("anthropic");

      const metrics = await (await fetch(`http://127.0.0.1:${worker.port}/metrics`)).text();
      expect(metrics).toMatch(/breakwater_queue_jobs\{queue="webhook-deliver",state="delayed"\} \d+/);
      expect(metrics).toMatch(
        /breakwater_webhook_deliveries_total\{backend="builtin",outcome="delivered"\} (\d+)/,
      );
      expect(metrics).toMatch(/breakwater_webhook_attempt_duration_seconds_count\{result="success"\} \d+/);
      expect(metrics).toMatch(/breakwater_breaker_episodes_expired_total \d+/);
    } finally {
      const code = await worker.stop("SIGTERM");
      expect(code).toBe(0);
      await deps.close();
    }
  });

  it("still exactly once when the worker is SIGKILLed mid-delivery and restarted", {
    timeout: 180_000,
  }, async () => {
    const config = harnessConfig(redis.url, { BREAKER_STALE_SECONDS: "10" });
    const deps = producerDeps(config);
    let worker: WorkerProcess = await spawnWorker(config);
    const fleet = await seedFleet(deps);
    let killed = false;
    let restarted: Promise<WorkerProcess> | undefined;
    // The receiver holds its answers; on the first request the worker dies with requests in flight.
    // After the kill it still answers a moment late: a request the dying worker wrote just before
    // the kill can be read after it, and answered at once it would count as acknowledged although
    // nobody was left to read the answer (its socket's close is seen right after, then).
    receiver.setBehaviour(() => (killed ? { status: 200, delayMs: 100 } : { status: 200, delayMs: 3_000 }));
    const kill = async () => {
      await new Promise((r) => setTimeout(r, 300)); // let a few more requests get in flight
      killed = true;
      await worker.stop("SIGKILL");
      restarted = spawnWorker(config);
      worker = await restarted;
    };
    let killing: Promise<void> | undefined;
    const watch = setInterval(() => {
      if (!killing && receiver.received.some(ofFleet(fleet))) killing = kill();
    }, 10);
    try {
      const { rounds, expectedPairs } = fleetScript();
      await playRounds(deps, rounds, fleet.resolve, Date.now() - 3_600_000);
      await receiver.waitFor(() => killed, 30_000);
      await killing;
      const r = await assertExactlyOnce(deps, fleet, expectedPairs);
      // Requests cut off by the kill were never acknowledged, so they were sent again — same webhook-id.
      console.log(
        `SIGKILL run: ${r.requests} requests for ${expectedPairs * 2} events; redelivered unanswered: ${r.redelivered.length}`,
      );
      expect(r.redelivered.length).toBeGreaterThan(0);
    } finally {
      clearInterval(watch);
      receiver.setBehaviour(() => ({ status: 200 }));
      await worker.stop("SIGTERM");
      await deps.close();
    }
  });

  it("still exactly once when Redis restarts empty mid-run", { timeout: 180_000 }, async () => {
    const config = harnessConfig(redis.url, { BREAKER_STALE_SECONDS: "10" });
    const deps = producerDeps(config);
    const worker = await spawnWorker(config);
    try {
      const fleet = await seedFleet(deps);
      const { rounds, expectedPairs } = fleetScript();
      const t0 = Date.now() - 3_600_000;
      // Slow answers keep deliveries in flight while Redis goes away.
      receiver.setBehaviour(() => ({ status: 200, delayMs: 400 }));
      await playRounds(deps, rounds.slice(0, 4), fleet.resolve, t0);
      await redis.stop(true);
      const down = await fetch(`http://127.0.0.1:${worker.port}/healthz`);
      expect(down.status).toBe(503);
      // Reports keep arriving while Redis is down: their enqueue fails fast, the outbox keeps them.
      await playRounds(deps, rounds.slice(4, 6), fleet.resolve, t0);
      await redis.restart();
      await playRounds(deps, rounds.slice(6), fleet.resolve, t0);
      const r = await assertExactlyOnce(deps, fleet, expectedPairs);
      console.log(
        `Redis restart run: ${r.requests} requests for ${expectedPairs * 2} events; redelivered: ${r.redelivered.length}`,
      );
      const up = await fetch(`http://127.0.0.1:${worker.port}/healthz`);
      expect(up.status).toBe(200);
      // The jobs Redis lost came back through the outbox sweeper.
      expect(worker.logs.join("")).toMatch(/"added":[1-9]/);
    } catch (err) {
      console.log(worker.logs.join("").slice(-8000));
      throw err;
    } finally {
      receiver.setBehaviour(() => ({ status: 200 }));
      await worker.stop("SIGTERM");
      await deps.close();
    }
  });

  it("free plan: transitions recorded, nothing delivered; an override delivers later transitions", {
    timeout: 120_000,
  }, async () => {
    const config = harnessConfig(redis.url);
    const deps = producerDeps(config);
    const worker = await spawnWorker(config);
    try {
      const sys = sysCtx(deps);
      const fleet = await seedFleet(deps, "free", false);
      const t0 = Date.now() - 3_600_000;
      const key = fleet.resolve("A/openai/i1");
      const report = (state: "open" | "closed", at: number) =>
        playRounds(deps, [[{ key: "A/openai/i1", state, at }]], () => key, t0, 0);
      await report("open", 1);
      await report("closed", 2);
      expect(await deps.db.breakerTransition.count({ where: { projectId: key.projectId } })).toBe(2);
      expect(
        await deps.db.webhookEvent.count({
          where: { projectId: key.projectId, deliverable: false, type: { in: [...BREAKER_EVENT_TYPES] } },
        }),
      ).toBe(2);
      expect(await deps.db.webhookOutbox.count({ where: { event: { projectId: key.projectId } } })).toBe(0);

      // The operator grants breaker_webhooks (and an endpoint slot) to this organization.
      for (const [featureKey, value] of [
        ["breaker_webhooks", true],
        ["max_webhook_endpoints", 1],
      ] as const) {
        await deps.db.entitlementOverride.create({
          data: { id: newId("ovr"), organizationId: fleet.org.id, featureKey, value, reason: "test" },
        });
      }
      const { secret } = await createWebhookEndpoint(sys, {
        organizationId: fleet.org.id,
        url: receiver.url,
        eventTypes: [...BREAKER_EVENT_TYPES],
      });
      secretsByProject.set(key.projectId, secret);
      await report("open", 3);
      await report("closed", 4);
      const delivered = await deliverableEvents(deps, fleet);
      expect(delivered).toHaveLength(2);
      await receiver.waitFor(
        (rs) => delivered.every((e) => rs.some((r) => r.webhookId === e.id && r.answered === 200)),
        20_000,
      );
      const mine = receiver.received.filter(ofFleet(fleet));
      expect(mine.map((r) => r.webhookId).sort()).toEqual(delivered.map((e) => e.id).sort());
      expect(mine.every((r) => r.verified)).toBe(true);
    } finally {
      await worker.stop("SIGTERM");
      await deps.close();
    }
  });
});
