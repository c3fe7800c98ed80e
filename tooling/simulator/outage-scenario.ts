/**
 * The outage scenario: one clean provider incident, start to finish, over the real wire API — the
 * fleet comes up healthy, the primary provider goes Down on ~30 % of the instances (the incident
 * opens), then 50 %, then 100 % (one update per crossing), then every breaker recovers and the
 * fleet keeps reporting healthy through the quiet period until the incident resolves. Down
 * instances' calls fail over to the next provider (metadata events), so the resolved incident has
 * calls saved and fallback models. About two minutes by default; every phase is configurable.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { modelOf } from "./simulator";
import { type CircuitState, type MetadataEvent, WireClient } from "./wire-client";

export interface OutageScenarioOptions {
  baseUrl: string;
  apiKey: string;
  projectId: string;
  instances: number;
  /** Failover chain; the first provider is the one that goes out. */
  providers: string[];
  /** Healthy lead-in before the outage (default 10 s). */
  healthyMs?: number;
  /** How long each step (30 %, 50 %, 100 % Down) lasts (default 20 s). */
  stepMs?: number;
  /** Healthy reporting after recovery, to outlast the project's quiet period (default 65 s). */
  recoverMs?: number;
  /** Heartbeat of every instance (default 15 s; keep it under BREAKER_STALE_SECONDS). */
  heartbeatMs?: number;
  /** A Down instance fails one call over to the fallback this often (default 2 s). */
  failoverEveryMs?: number;
  signal?: AbortSignal;
  onPhase?: (phase: OutagePhase, down: number, instances: number) => void;
}

export type OutagePhase =
  | "healthy"
  | "down_30"
  | "down_50"
  | "down_100"
  | "recovering"
  | "recovered"
  | "done";

export interface OutageScenarioStats {
  reports: number;
  failovers: number;
  errors: number;
  lastError: string | null;
  phases: { phase: OutagePhase; at: string; down: number }[];
}

/** The instance counts Down at each step: ≥ 30 %, ≥ 50 %, all (at least 1, 2… on small fleets). */
export function outageSteps(instances: number): [number, number, number] {
  return [Math.max(1, Math.ceil(instances * 0.3)), Math.max(1, Math.ceil(instances * 0.5)), instances];
}

export async function runOutageScenario(o: OutageScenarioOptions): Promise<OutageScenarioStats> {
  if (o.instances < 1) throw new Error("at least one instance");
  const [primary, fallback] = o.providers;
  if (!primary) throw new Error("at least one provider");
  const client = new WireClient(o.baseUrl, o.apiKey);
  const run = Math.random().toString(36).slice(2, 6);
  const ids = Array.from({ length: o.instances }, (_, i) => `outage-${run}-${String(i).padStart(3, "0")}`);
  const state = new Map<string, CircuitState>(ids.map((id) => [id, "closed"]));
  const lastSent = new Map<string, number>();
  const stats: OutageScenarioStats = { reports: 0, failovers: 0, errors: 0, lastError: null, phases: [] };
  const heartbeatMs = o.heartbeatMs ?? 15_000;
  const failoverEveryMs = o.failoverEveryMs ?? 2_000;

  const guard = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      stats.errors++;
      stats.lastError = err instanceof Error ? err.message : String(err);
    }
  };
  const report = (id: string, s: CircuitState) => {
    // reported_at strictly increases per instance, as an SDK's clock does.
    const at = Math.max(Date.now(), (lastSent.get(id) ?? 0) + 1);
    lastSent.set(id, at);
    state.set(id, s);
    stats.reports++;
    return guard(() =>
      client.breakerReport(o.projectId, {
        provider: primary,
        state: s,
        failure_count: s === "closed" ? 0 : 3,
        success_count: s === "closed" ? 2 : 0,
        reported_at: new Date(at).toISOString(),
        sdk_instance_id: id,
      }),
    );
  };
  const setDown = async (count: number) => {
    // Instances go Down within moments of each other, as in a real outage.
    await Promise.all(
      ids.slice(0, count).map((id) => (state.get(id) === "open" ? null : report(id, "open"))),
    );
  };
  const phase = (p: OutagePhase) => {
    const down = [...state.values()].filter((s) => s !== "closed").length;
    stats.phases.push({ phase: p, at: new Date().toISOString(), down });
    o.onPhase?.(p, down, o.instances);
  };

  // Down instances' calls skip the open breaker and are served by the fallback: failover events.
  const failovers = async () => {
    if (!fallback) return;
    const now = Date.now();
    const events: MetadataEvent[] = ids
      .filter((id) => state.get(id) === "open")
      .map((id, k) => ({
        model: modelOf(fallback),
        provider: fallback,
        modality: "text",
        input_tokens: 800,
        output_tokens: 200,
        latency_ms: 900,
        status: "success",
        is_model_fallback: false,
        is_provider_fallback: true,
        requested_provider: primary,
        requested_model: modelOf(primary),
        failover_reason: "circuit_open",
        failover_error_class: null,
        attempt_index: 0,
        call_id: randomUUID(),
        sdk_instance_id: id,
        timestamp: new Date(now + k).toISOString(),
      }));
    for (let i = 0; i < events.length; i += 50) {
      const batch = events.slice(i, i + 50);
      stats.failovers += batch.length;
      await guard(() => client.ingest(batch));
    }
  };

  /** Keeps the fleet alive for `ms`: heartbeats, and failovers while Down. */
  const hold = async (ms: number) => {
    const end = Date.now() + ms;
    let nextBeat = Date.now() + heartbeatMs;
    let nextFailover = Date.now();
    while (Date.now() < end && !o.signal?.aborted) {
      if (Date.now() >= nextFailover) {
        nextFailover = Date.now() + failoverEveryMs;
        await failovers();
      }
      if (Date.now() >= nextBeat) {
        nextBeat = Date.now() + heartbeatMs;
        await Promise.all(ids.map((id) => report(id, state.get(id) ?? "closed")));
      }
      await sleep(Math.max(0, Math.min(250, end - Date.now())));
    }
  };

  await Promise.all(ids.map((id) => report(id, "closed")));
  phase("healthy");
  await hold(o.healthyMs ?? 10_000);
  const steps = outageSteps(o.instances);
  const labels: OutagePhase[] = ["down_30", "down_50", "down_100"];
  for (const [k, count] of steps.entries()) {
    if (o.signal?.aborted) break;
    await setDown(count);
    phase(labels[k] as OutagePhase);
    await hold(o.stepMs ?? 20_000);
  }
  // Recovery: every breaker probes (half_open) and closes.
  await Promise.all(ids.map((id) => report(id, "half_open")));
  phase("recovering");
  await sleep(500);
  await Promise.all(ids.map((id) => report(id, "closed")));
  phase("recovered");
  await hold(o.recoverMs ?? 65_000);
  phase("done");
  return stats;
}
