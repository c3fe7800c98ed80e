import type { AddressInfo } from "node:net";
import { parseConfig, processEnv } from "@breakwater/config";
import {
  createApiKey,
  createOrganization,
  createProject,
  parseWebhookEvent,
  sweepProviderIncidents,
  systemCtx,
} from "@breakwater/core";
import { createWireRuntime, createWireServer, type WireRuntime } from "@breakwater/wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolDeps } from "../src/deps";
import { outageSteps, runOutageScenario } from "./outage-scenario";

const config = parseConfig({ ...processEnv(), LOG_LEVEL: "warn" });
const deps = createToolDeps(config, "outage-scenario-test");
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

describe("outage scenario", () => {
  it("steps 30 % → 50 % → 100 % Down, then recovers", () => {
    expect(outageSteps(40)).toEqual([12, 20, 40]);
    expect(outageSteps(2)).toEqual([1, 1, 2]);
    expect(outageSteps(1)).toEqual([1, 1, 1]);
  });

  it("drives one clean incident over the wire: opened, 50 % and 100 % updates, resolved with calls saved", async () => {
    const ctx = systemCtx(deps);
    const org = await createOrganization(ctx, {
      name: `Outage ${Date.now().toString(36)}`,
      planSlug: "team",
    });
    const project = await createProject(ctx, { organizationId: org.id, name: "outage" });
    await deps.db.project.update({ where: { id: project.id }, data: { incidentQuietSecs: 1 } });
    const { apiKey } = await createApiKey(ctx, { projectId: project.id, name: "outage" });
    const phases: string[] = [];
    const stats = await runOutageScenario({
      baseUrl,
      apiKey,
      projectId: project.id,
      instances: 8,
      providers: ["openai", "anthropic"],
      healthyMs: 300,
      stepMs: 1_500,
      recoverMs: 1_500,
      failoverEveryMs: 500,
      onPhase: (p) => phases.push(p),
    });
    expect(stats.errors).toBe(0);
    expect(phases).toEqual(["healthy", "down_30", "down_50", "down_100", "recovering", "recovered", "done"]);
    // The worker's sweep resolves it once the quiet period has passed (run here directly).
    await sweepProviderIncidents(deps, { projectIds: [project.id] });

    const incidents = await deps.db.providerIncident.findMany({ where: { projectId: project.id } });
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ status: "resolved", peakCount: 8, peakShare: 1 });
    const events = await deps.db.webhookEvent.findMany({
      where: { projectId: project.id, type: { startsWith: "provider_incident_" } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const parsed = events.map((e) => parseWebhookEvent(e.payload));
    expect(
      parsed.map((e) =>
        e.type === "provider_incident_updated" ? `updated ${e.data.crossed_share}` : e.type,
      ),
    ).toEqual(["provider_incident_opened", "updated 0.5", "updated 1", "provider_incident_resolved"]);
    const resolved = parsed.at(-1);
    if (resolved?.type !== "provider_incident_resolved") throw new Error("not resolved");
    expect(resolved.data.calls_saved).toBeGreaterThan(0);
    expect(resolved.data.fallback_models).toEqual(["claude-sonnet-4-5"]);
    expect(resolved.data.instances_involved).toHaveLength(8);
  }, 60_000);
});
