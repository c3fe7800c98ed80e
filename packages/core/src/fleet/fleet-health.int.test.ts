import { randomUUID } from "node:crypto";
import { parseConfig, processEnv } from "@breakwater/config";
import { createRedisClient, masterNodes, RedisPubSub, whenReady } from "@breakwater/queue";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Ctx } from "../context";
import { seedProject, testDeps } from "../testing/fleet";
import { FLEET_CHANNEL, type FleetChange, FleetLiveHub, publishFleetChanges } from "./fleet-live";
import { getFleetOverview } from "./get-fleet-overview";
import { getProviderHealth } from "./get-provider-health";
import { listFailoverFeed } from "./list-failover-feed";
import { listProviderInstances } from "./list-provider-instances";
import { recordBreakerReport } from "./record-breaker-report";

const config = parseConfig(processEnv());
const redis = createRedisClient(config, "publisher");
const deps = { ...testDeps({ BREAKER_STALE_SECONDS: "180" }), redis };
const hub = new FleetLiveHub({ redis: config, log: deps.log });
afterAll(async () => {
  await hub.close();
  redis.disconnect();
  await deps.db.$disconnect();
});

const viewer = (organizationId: string): Ctx => ({
  ...deps,
  actor: { type: "user", userId: "u", isOperator: false },
  organizationId,
  role: "viewer",
});

/** A call requested of `requested` that `served` answered for instance `inst`, `agoS` seconds ago. */
function fallbackEvent(projectId: string, inst: string, requested: string, served: string, agoS: number) {
  return {
    projectId,
    callId: randomUUID(),
    attemptIndex: 1,
    timestamp: new Date(Date.now() - agoS * 1000),
    sdkInstanceId: inst,
    model: served === "anthropic" ? "claude-sonnet-4-5" : "gpt-4o",
    provider: served,
    status: "success",
    inputTokens: 100,
    outputTokens: 20,
    latencyMs: 850,
    isModelFallback: false,
    isProviderFallback: true,
    requestedProvider: requested,
    requestedModel: "gpt-4o",
    failoverReason: "circuit_open",
    agentRunId: `_auto-${inst}`,
    priced: false,
  };
}

describe("fleet health", () => {
  it("fills every project × provider, sorts worst first, filters, and flags a long Down whose fallback serves", async () => {
    const { org, project: calm } = await seedProject(deps, "team");
    const { createProject } = await import("../tenancy/create-project");
    const { systemCtx } = await import("../context");
    const busy = await createProject(systemCtx(deps), { organizationId: org.id, name: "zz-busy" });
    const now = Date.now();
    const report = (
      projectId: string,
      provider: string,
      inst: string,
      state: "closed" | "open" | "half_open",
      agoS: number,
    ) =>
      recordBreakerReport(deps, {
        projectId,
        provider,
        sdkInstanceId: inst,
        state,
        failureCount: state === "open" ? 3 : 0,
        successCount: 5,
        reportedAt: new Date(now - agoS * 1000),
      });
    await report(calm.id, "openai", "c1", "closed", 5);
    await report(busy.id, "openai", "b1", "open", 7200); // Down two hours…
    await report(busy.id, "openai", "b2", "closed", 5);
    await report(busy.id, "anthropic", "b1", "closed", 5);
    // …while anthropic serves b1's openai calls.
    await deps.db.metadataEvent.createMany({
      data: [fallbackEvent(busy.id, "b1", "openai", "anthropic", 30)],
    });

    const grid = await getFleetOverview(viewer(org.id), { organizationId: org.id });
    expect(grid.allProviders).toEqual(["anthropic", "openai"]);
    // The busy project sorts first although its name sorts last; every cell is filled.
    expect(grid.projects.map((p) => [p.name, p.status])).toEqual([
      ["zz-busy", "Down"],
      [calm.name, "Healthy"],
    ]);
    const calmRow = grid.projects[1];
    expect(calmRow?.cells.anthropic).toMatchObject({
      status: "Unknown",
      reported: false,
      summary: "No instance reported",
    });
    const cell = grid.projects[0]?.cells.openai;
    expect(cell).toMatchObject({ status: "Down", summary: "1 of 2 instances Down", unprobed: 1 });
    expect(cell?.unprobedNote).toBe("Down 2 h, fallback serving — breaker not re-probed");
    expect(grid.totals).toEqual({ Healthy: 2, Down: 1, Recovering: 0, Unknown: 0 });
    expect(Date.parse(grid.nextStaleAt ?? "")).toBeGreaterThan(now + 170_000);

    const filtered = await getFleetOverview(viewer(org.id), {
      organizationId: org.id,
      projectIds: [calm.id],
      providers: ["openai"],
    });
    expect(filtered.providers).toEqual(["openai"]);
    expect(filtered.projects.map((p) => p.id)).toEqual([calm.id]);
    expect(Object.keys(filtered.projects[0]?.cells ?? {})).toEqual(["openai"]);

    const page = await getProviderHealth(viewer(org.id), { projectId: busy.id, provider: "openai", days: 3 });
    expect(page.unprobedNote).toBe("Down 2 h, fallback serving — breaker not re-probed");
    const { instances } = await listProviderInstances(viewer(org.id), {
      projectId: busy.id,
      provider: "openai",
    });
    expect(instances.find((i) => i.sdkInstanceId === "b1")).toMatchObject({
      unprobed: true,
      label: "Down",
    });
    expect(instances.find((i) => i.sdkInstanceId === "b2")).toMatchObject({ unprobed: false });
    expect(page.savedCalls24h).toBe(1);
    const feed = await listFailoverFeed(viewer(org.id), { projectId: busy.id, provider: "openai" });
    expect(feed.items).toEqual([
      expect.objectContaining({
        requestedProvider: "openai",
        servedProvider: "anthropic",
        servedModel: "claude-sonnet-4-5",
        reason: "circuit_open",
        latencyMs: 850,
      }),
    ]);
    expect(page.openEpisodes).toHaveLength(1);
    expect(page.openEpisodes[0]?.durationSeconds).toBeGreaterThanOrEqual(7200);
    expect(page.timeline).toHaveLength(48);
    const downs = page.timeline.reduce((n, b) => n + b.down, 0);
    expect(downs).toBe(1);

    // A Down younger than the recovery window is an outage being probed, not an unprobed breaker.
    await report(busy.id, "google", "b1", "open", 10);
    await deps.db.metadataEvent.createMany({ data: [fallbackEvent(busy.id, "b1", "google", "openai", 5)] });
    const young = await getProviderHealth(viewer(org.id), { projectId: busy.id, provider: "google" });
    expect(young.unprobedNote).toBeNull();
    expect(young.status).toBe("Down");

    // The other tenant sees none of it.
    const other = await seedProject(deps, "team");
    await expect(
      getProviderHealth(viewer(other.org.id), { projectId: busy.id, provider: "openai" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("publishes visible changes on bw:fleet to listeners of the report's organization only", async () => {
    const a = await seedProject(deps, "team");
    const b = await seedProject(deps, "team");
    const seenA: FleetChange[] = [];
    const seenB: FleetChange[] = [];
    const offA = await hub.subscribe(a.org.id, (c) => seenA.push(c));
    const offB = await hub.subscribe(b.org.id, (c) => seenB.push(c));
    const at = Date.now();
    const report = (state: "closed" | "open", agoMs: number) =>
      recordBreakerReport(deps, {
        projectId: a.project.id,
        provider: "openai",
        sdkInstanceId: "i1",
        state,
        failureCount: 0,
        successCount: 0,
        reportedAt: new Date(at - agoMs),
      });
    await report("closed", 3000); // new instance
    await report("closed", 2000); // heartbeat: nothing visible
    await report("open", 1000); // transition, which opens the provider incident (1 of 1 Down)
    await vi.waitFor(() =>
      expect(seenA.map((c) => c.kind)).toEqual(["new_instance", "transition", "incident"]),
    );
    // Where each instance was counted before, so an open page moves it between counts at once.
    expect(seenA.map((c) => c.from)).toEqual([null, "closed", undefined]);
    expect(seenA[1]).toMatchObject({
      projectId: a.project.id,
      provider: "openai",
      state: "open",
      organizationId: a.org.id,
    });
    // A later, unrelated change of B's arrives at B, so A's would have had time to arrive too.
    await recordBreakerReport(deps, {
      projectId: b.project.id,
      provider: "openai",
      sdkInstanceId: "i1",
      state: "open",
      failureCount: 0,
      successCount: 0,
      reportedAt: new Date(),
    });
    await vi.waitFor(() => expect(seenB.map((c) => c.kind)).toEqual(["new_instance", "incident"]));
    expect(seenB.every((c) => c.organizationId === b.org.id)).toBe(true);
    expect(seenA).toHaveLength(3);
    offA();
    offB();
  });

  it("an outage's many changes leave in a few messages and arrive whole and in order", async () => {
    const a = await seedProject(deps, "team");
    const seen: FleetChange[] = [];
    const off = await hub.subscribe(a.org.id, (c) => seen.push(c));
    // The channel's raw messages, through the same pub/sub layer (sharded on a cluster).
    const published: string[] = [];
    const tap = new RedisPubSub({ target: config });
    await tap.subscribe(FLEET_CHANNEL, (message) => published.push(message));
    const changes = Array.from({ length: 600 }, (_, n) => ({
      projectId: a.project.id,
      provider: "openai",
      sdkInstanceId: `i-${n}`,
      state: "open" as const,
      kind: "transition" as const,
      from: "closed" as const,
    }));
    await publishFleetChanges(deps, changes);
    await vi.waitFor(() => expect(seen).toHaveLength(600), { timeout: 5_000 });
    expect(seen.map((c) => c.sdkInstanceId)).toEqual(changes.map((c) => c.sdkInstanceId));
    expect(seen.every((c) => c.organizationId === a.org.id)).toBe(true);
    // Other suites publish on the same channel: count this organization's messages only.
    const ours = () => published.filter((m) => m.includes(a.org.id));
    await vi.waitFor(() => expect(ours()).toHaveLength(3), { timeout: 5_000 });
    expect(ours().map((m) => (JSON.parse(m) as unknown[]).length)).toEqual([250, 250, 100]);
    off();
    await tap.close();
  });

  it("tells every live page to refetch when the replica's subscription comes back after a drop", async () => {
    const a = await seedProject(deps, "team");
    let gaps = 0;
    const off = await hub.subscribe(
      a.org.id,
      () => undefined,
      3_000,
      () => gaps++,
    );
    expect(await whenReady(redis, 5_000)).toBe(true);
    for (const node of masterNodes(redis)) await node.call("CLIENT", "KILL", "TYPE", "pubsub");
    await vi.waitFor(() => expect(gaps).toBe(1), { timeout: 1_000, interval: 10 });
    off();
  });
});
