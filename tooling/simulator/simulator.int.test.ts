import type { AddressInfo } from "node:net";
import { parseConfig, processEnv } from "@breakwater/config";
import { createApiKey, createOrganization, createProject, systemCtx } from "@breakwater/core";
import { createWireRuntime, createWireServer, type WireRuntime } from "@breakwater/wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolDeps } from "../src/deps";
import { FleetSimulator } from "./simulator";

const config = parseConfig({ ...processEnv(), LOG_LEVEL: "warn" });
const deps = createToolDeps(config, "simulator-test");
let runtime: WireRuntime;
let server: ReturnType<typeof createWireServer>;
let baseUrl: string;

beforeAll(async () => {
  runtime = await createWireRuntime(config);
  server = createWireServer(runtime.dispatch, { log: runtime.log });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  server?.closeAllConnections();
  await runtime?.close();
  await deps.db.$disconnect();
});

describe("fleet simulator", () => {
  it("drives a project over the wire API: snapshots, an outage that opens breakers, fallback-served events, and a recovery", async () => {
    const ctx = systemCtx(deps);
    const org = await createOrganization(ctx, { name: `Sim ${Date.now().toString(36)}`, planSlug: "team" });
    const project = await createProject(ctx, { organizationId: org.id, name: "sim" });
    const { apiKey } = await createApiKey(ctx, { projectId: project.id, name: "sim" });
    const sim = new FleetSimulator({
      baseUrl,
      apiKey,
      projectId: project.id,
      instances: 4,
      providers: ["openai", "anthropic"],
      callRate: 1,
      unprobedShare: 0,
      silenceRate: 0,
      autoOutages: false,
      seed: 42,
    });
    await sim.reportAllOnce();
    expect(await deps.db.breakerSnapshot.count({ where: { projectId: project.id } })).toBe(8);

    // openai fails for a while (simulated clock): the breaker of every instance calling it first
    // opens, and anthropic serves.
    const primaries = sim.instances.filter((i) => i.chain[0] === "openai").length;
    expect(primaries).toBeGreaterThan(0);
    const t0 = Date.now();
    sim.forceOutage("openai", "down", 20_000);
    for (let s = 0; s < 10; s++) {
      sim.tick(t0 + s * 1000);
      await sim.drain();
    }
    for (const inst of sim.instances) inst.flush(t0 + 10_000);
    await sim.drain();
    expect(sim.stats.errors).toBe(0);
    const open = await deps.db.breakerSnapshot.count({
      where: { projectId: project.id, provider: "openai", state: "open" },
    });
    expect(open).toBe(primaries);
    expect(await deps.db.breakerEpisode.count({ where: { projectId: project.id, closedAt: null } })).toBe(
      primaries,
    );
    const served = await deps.db.metadataEvent.count({
      where: {
        projectId: project.id,
        isProviderFallback: true,
        requestedProvider: "openai",
        provider: "anthropic",
      },
    });
    expect(served).toBeGreaterThan(0);

    // The outage is over; past the 60 s recovery window the breakers probe and close again.
    for (let s = 75; s < 85; s++) {
      sim.tick(t0 + s * 1000);
      await sim.drain();
    }
    const closed = await deps.db.breakerSnapshot.count({
      where: { projectId: project.id, provider: "openai", state: "closed" },
    });
    expect(closed).toBe(4);
    expect(
      await deps.db.breakerEpisode.count({ where: { projectId: project.id, closedAt: { not: null } } }),
    ).toBe(primaries);
  });
});
