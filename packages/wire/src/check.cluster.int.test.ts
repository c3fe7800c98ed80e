import { budgetPrefix } from "@breakwater/core";
import { type PrivateCluster, startPrivateCluster } from "@breakwater/queue/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
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
});
