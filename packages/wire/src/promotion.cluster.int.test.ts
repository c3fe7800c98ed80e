import { budgetPrefix, currentWindows } from "@breakwater/core";
import { type PrivateCluster, startPrivateCluster } from "@breakwater/queue/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  CHECK,
  checkBody,
  createTenant,
  type Harness,
  post,
  startHarness,
  type Tenant,
} from "./testing/harness";

// A short node timeout keeps each failover to a few seconds. Redis itself takes the node timeout
// plus 0.5–1.5 s (failure reports, the replica's election delay of 500–1000 ms, the vote); the SDK
// API must answer again within the node timeout + 2 s of the kill, and within a second of the
// promotion however long Redis took.
const NODE_TIMEOUT_MS = 1_000;
const RECOVERY_BOUND_MS = NODE_TIMEOUT_MS + 2_000;
const CLIENT_SHARE_MS = 1_000;

let cluster: PrivateCluster;
let h: Harness;
beforeAll(async () => {
  cluster = await startPrivateCluster({ masters: 3, replicas: 1, nodeTimeoutMs: NODE_TIMEOUT_MS });
  h = await startHarness({ REDIS_CLUSTER_NODES: cluster.nodes });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await cluster?.stop();
});

/** A new tenant whose slot lives on a master that has a live replica and is not in `avoid`. */
async function tenantOnReplicatedMaster(avoid: number[] = []): Promise<{ t: Tenant; master: number }> {
  for (;;) {
    const t = await createTenant(h, { limits: { monthly: 1_000 } });
    const master = await cluster.ownerOf(budgetPrefix(t.projectId));
    if (!avoid.includes(master) && (await cluster.replicasOf(master)).length > 0) return { t, master };
  }
}

let second = 0;
/** A breaker report of an unchanged state, newer than the last (a heartbeat once the first is stored). */
function beat(t: Tenant) {
  second++;
  return post(
    h,
    breakerPath(t.projectId),
    {
      provider: "openai",
      state: "closed",
      failure_count: 0,
      success_count: second,
      reported_at: new Date(Date.now() - 60_000 + second * 10).toISOString(),
      sdk_instance_id: "inst-promotion",
    },
    t.key,
  );
}

/**
 * Sends `probe` every 50 ms without waiting for the answers, as steady traffic does, until one
 * answers `ok`; every other answer must be a 503 given within a second. Resolves, once every probe
 * sent has answered, with the milliseconds from `since` to the first `ok` answer.
 */
async function recoveryUnderTraffic(
  since: number,
  ok: number,
  probe: () => Promise<{ status: number }>,
): Promise<{ ms: number; unavailable: number }> {
  let unavailable = 0;
  let recovered: number | undefined;
  const failures: string[] = [];
  const inFlight: Promise<void>[] = [];
  while (recovered === undefined && performance.now() - since < 15_000) {
    const sent = performance.now();
    inFlight.push(
      probe().then((r) => {
        const took = performance.now() - sent;
        if (r.status === ok) recovered ??= performance.now() - since;
        else {
          unavailable++;
          if (r.status !== 503 || took >= 1_000) failures.push(`${r.status} after ${Math.round(took)} ms`);
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
  }
  await Promise.all(inFlight);
  expect(failures).toEqual([]);
  if (recovered === undefined) throw new Error("no recovery within 15 s");
  return { ms: recovered, unavailable };
}

/** Resolves with the milliseconds from `since` until the node on `port` reports itself a master. */
async function promotedAfter(port: number, since: number): Promise<number> {
  for (;;) {
    const role = (await callOnNode(port, "ROLE")) as [string, ...unknown[]];
    if (role[0] === "master") return performance.now() - since;
    if (performance.now() - since > 15_000) throw new Error(`${port} was not promoted within 15 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits out a UTC midnight that is near: the test reads this month's window for a few seconds. */
async function clearOfMidnight(marginMs = 30_000): Promise<void> {
  const untilMidnight = 86_400_000 - (Date.now() % 86_400_000);
  if (untilMidnight < marginMs) await new Promise((r) => setTimeout(r, untilMidnight + 50));
}

describe("the SDK API when a Redis Cluster master is replaced by its replica", () => {
  it("a killed master: checks and heartbeats of its projects answer again within node timeout + 2 s, no process restarted, and the counters the replica missed are rebuilt from Postgres", async () => {
    await clearOfMidnight();
    const { t, master } = await tenantOnReplicatedMaster();
    const [replica] = await cluster.replicasOf(master);
    // $5 of durable spend: the first check builds the project's counters from it.
    await h.db.metadataEvent.create({
      data: {
        projectId: t.projectId,
        callId: crypto.randomUUID(),
        attemptIndex: 0,
        timestamp: new Date(Date.now() - 10_000),
        sdkInstanceId: "sdk-promotion",
        model: "gpt-5.5",
        provider: "openai",
        status: "success",
        inputTokens: 1,
        outputTokens: 1,
        latencyMs: 10,
        isModelFallback: false,
        agentRunId: "_auto-sdk-promotion",
        costUsd: "5",
        priced: true,
      },
    });
    expect((await post(h, CHECK, checkBody(), t.key)).status).toBe(200);
    expect((await beat(t)).status).toBe(202); // the first report: the transactional path
    await new Promise((r) => setTimeout(r, 100)); // its settle lands in Redis
    const fast = h.runtime.ctx.breakers.counts.heartbeat;
    expect((await beat(t)).status).toBe(202);
    expect(h.runtime.ctx.breakers.counts.heartbeat).toBe(fast + 1);

    // What asynchronous replication can lose: writes the master acknowledged that its replica never
    // got. Here the replica lacks the $5 (taken off on the master and replicated), as if the write
    // that counted it had not reached the replica before the master died.
    const usageKey = `${budgetPrefix(t.projectId)}u:${currentWindows(new Date()).monthly.key}`;
    const direct = new Redis({ host: "127.0.0.1", port: master, lazyConnect: true });
    await direct.connect();
    const before = Number(await direct.get(usageKey));
    expect(before).toBe(5_000_000_000);
    await direct.decrby(usageKey, 5_000_000_000);
    expect(await direct.call("WAIT", "1", "2000")).toBe(1);
    direct.disconnect();

    const killedAt = performance.now();
    await cluster.kill(master);
    const checks = recoveryUnderTraffic(killedAt, 200, () => post(h, CHECK, checkBody(), t.key));
    const beats = recoveryUnderTraffic(killedAt, 202, () => beat(t));
    const [c, b, promoted] = await Promise.all([checks, beats, promotedAfter(replica!, killedAt)]);
    expect(c.unavailable).toBeGreaterThan(0); // the outage was seen: 503s until the promotion
    expect(c.ms).toBeLessThan(RECOVERY_BOUND_MS);
    expect(b.ms).toBeLessThan(RECOVERY_BOUND_MS);
    // Of which the SDK API's own share: finding the promoted replica.
    expect(c.ms - promoted).toBeLessThan(CLIENT_SHARE_MS);
    expect(b.ms - promoted).toBeLessThan(CLIENT_SHARE_MS);
    expect(await cluster.ownerOf(budgetPrefix(t.projectId))).toBe(replica);

    // The promoted replica held a marker the old master built: it was swept, and the counters were
    // rebuilt from Postgres — the $5 the replica missed is counted again.
    await h.runtime.promotions.idle();
    expect((await post(h, CHECK, checkBody(), t.key)).status).toBe(200);
    expect(Number(await readOnNode(replica!, usageKey))).toBe(5_000_000_000);
    const nodeId = (await callOnNode(replica!, "CLUSTER", "MYID")) as string;
    expect(await callOnNode(replica!, "HGET", `${budgetPrefix(t.projectId)}built`, "n")).toBe(nodeId);
    // Heartbeats take the fast path again: the snapshot entry came along with the replica.
    const fastAfter = h.runtime.ctx.breakers.counts.heartbeat;
    expect((await beat(t)).status).toBe(202);
    expect(h.runtime.ctx.breakers.counts.heartbeat).toBe(fastAfter + 1);
  }, 60_000);

  it("a master that hangs instead of dying (SIGSTOP): its projects answer again within a second of its replica's promotion", async () => {
    const { t, master } = await tenantOnReplicatedMaster();
    const [replica] = await cluster.replicasOf(master);
    expect((await post(h, CHECK, checkBody(), t.key)).status).toBe(200);

    const frozenAt = performance.now();
    cluster.freeze(master);
    const [c, promoted] = await Promise.all([
      recoveryUnderTraffic(frozenAt, 200, () => post(h, CHECK, checkBody(), t.key)),
      promotedAfter(replica!, frozenAt),
    ]);
    expect(c.unavailable).toBeGreaterThan(0);
    // Checks already sent to the hung master wait out their deadline (500 ms) before the slot map
    // is refreshed; without that refresh the client would find the replica only at its periodic
    // refresh, up to 5 s later.
    expect(c.ms - promoted).toBeLessThan(CLIENT_SHARE_MS);
    expect(await cluster.ownerOf(budgetPrefix(t.projectId))).toBe(replica);
  }, 60_000);
});

async function callOnNode(port: number, ...args: string[]): Promise<unknown> {
  const r = new Redis({ host: "127.0.0.1", port, lazyConnect: true });
  try {
    await r.connect();
    return await r.call(args[0]!, ...args.slice(1));
  } finally {
    r.disconnect();
  }
}
const readOnNode = (port: number, key: string) => callOnNode(port, "GET", key);
