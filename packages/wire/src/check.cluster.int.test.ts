import { budgetPrefix, fleetKeys } from "@breakwater/core";
import { type PrivateCluster, startPrivateCluster } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  breakerReport,
  CHECK,
  checkBody,
  createTenant,
  type Harness,
  post,
  startHarness,
  type Tenant,
} from "./testing/harness";

let cluster: PrivateCluster;
let h: Harness;
beforeAll(async () => {
  cluster = await startPrivateCluster({ masters: 3 });
  h = await startHarness({ REDIS_CLUSTER_NODES: cluster.nodes });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await cluster?.stop();
});

describe("the SDK API on a Redis Cluster with one master down", () => {
  it("answers the other masters' projects 200, the down master's 503 in the documented envelope within the check's second, and recovers them when it returns", async () => {
    const byMaster = new Map<number, Tenant>();
    while (byMaster.size < 2) {
      const t = await createTenant(h);
      byMaster.set(await cluster.ownerOf(budgetPrefix(t.projectId)), t);
    }
    const [[downPort, down], [, up]] = [...byMaster.entries()] as [[number, Tenant], [number, Tenant]];
    expect((await post(h, CHECK, checkBody(), up.key)).status).toBe(200);
    expect((await post(h, CHECK, checkBody(), down.key)).status).toBe(200);

    await cluster.kill(downPort);
    for (let i = 0; i < 5; i++) {
      expect((await post(h, CHECK, checkBody(), up.key)).status).toBe(200);
      const started = Date.now();
      const r = await post(h, CHECK, checkBody(), down.key);
      expect(r.status).toBe(503);
      expect(r.text).toBe('{"detail":"Budget backend temporarily unavailable; retry"}');
      expect(Date.now() - started).toBeLessThan(1000);
    }

    await cluster.restart(downPort);
    await expect
      .poll(async () => (await post(h, CHECK, checkBody(), down.key)).status, {
        timeout: 15_000,
        interval: 200,
      })
      .toBe(200);
    expect((await post(h, CHECK, checkBody(), up.key)).status).toBe(200);
  }, 90_000);

  it("breaker heartbeats: the down master's projects answer 503 fast, the others 202, and the fast path resumes", async () => {
    const byMaster = new Map<number, Tenant>();
    while (byMaster.size < 2) {
      const t = await createTenant(h);
      const owner = await cluster.ownerOf(fleetKeys(t.projectId).snap);
      // A project's breaker snapshots share its budget keys' slot.
      expect(owner).toBe(await cluster.ownerOf(budgetPrefix(t.projectId)));
      byMaster.set(owner, t);
    }
    const [[downPort, down], [, up]] = [...byMaster.entries()] as [[number, Tenant], [number, Tenant]];
    let second = 0;
    const beat = (t: Tenant) => {
      second++;
      const at = new Date(Date.now() - 60_000 + second * 10).toISOString();
      return post(h, breakerPath(t.projectId), breakerReport(at, "closed"), t.key);
    };
    for (const t of [up, down]) {
      expect((await beat(t)).status).toBe(202); // first report: the transactional path
      await new Promise((r) => setTimeout(r, 100)); // its settle lands in Redis
      expect((await beat(t)).status).toBe(202); // a heartbeat
    }
    const fastBefore = h.runtime.ctx.breakers.counts.heartbeat;
    expect(fastBefore).toBeGreaterThanOrEqual(2);

    await cluster.kill(downPort);
    for (let i = 0; i < 5; i++) {
      expect((await beat(up)).status).toBe(202);
      const started = Date.now();
      const r = await beat(down);
      expect(r.status).toBe(503);
      expect(r.text).toBe('{"detail":"Service temporarily unavailable; retry"}');
      expect(Date.now() - started).toBeLessThan(1000);
    }
    expect(h.runtime.ctx.breakers.counts.heartbeat).toBeGreaterThanOrEqual(fastBefore + 5);

    await cluster.restart(downPort);
    await expect.poll(async () => (await beat(down)).status, { timeout: 15_000, interval: 200 }).toBe(202);
    // The restarted master came back empty: the transactional path re-seeds it, then heartbeats are fast again.
    await new Promise((r) => setTimeout(r, 100));
    const fast = h.runtime.ctx.breakers.counts.heartbeat;
    expect((await beat(down)).status).toBe(202);
    expect(h.runtime.ctx.breakers.counts.heartbeat).toBe(fast + 1);
  }, 90_000);
});
