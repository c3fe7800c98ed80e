/**
 * The fleet simulator: SDK instances of one project making LLM calls through failover chains, over
 * the real wire API — budget checks and confirms, metadata events (failovers included), and
 * circuit-breaker reports that follow provider outages as the SDK's breakers would (open after 3
 * failures, probe after the 60 s recovery window, close after 2 successes; some instances keep the
 * default policy of not re-probing a primary while the fallback serves). Outages open, recover and
 * flap; instances go silent. Nothing here touches the database: it is an SDK fleet, not a fixture.
 */
import { randomUUID } from "node:crypto";
import { type CircuitState, type MetadataEvent, WireClient } from "./wire-client";

const MODELS: Record<string, string> = {
  openai: "gpt-4o",
  anthropic: "claude-sonnet-4-5",
  google: "gemini-2.5-pro",
  bedrock: "anthropic.claude-3-5-sonnet-20240620-v1:0",
  mistral: "mistral-large-latest",
  xai: "grok-4",
  deepseek: "deepseek-chat",
  groq: "llama-3.3-70b-versatile",
};
export const modelOf = (provider: string) => MODELS[provider] ?? `${provider}-default`;

/** The SDK's default breaker knobs. */
const FAILURE_THRESHOLD = 3;
const RECOVERY_MS = 60_000;
const SUCCESS_THRESHOLD = 2;
const HEARTBEAT_MS = 60_000;
const FLUSH_MS = 5_000;

export interface SimulatorOptions {
  baseUrl: string;
  apiKey: string;
  projectId: string;
  instances: number;
  providers: string[];
  /** Calls per second per instance (default 0.5). */
  callRate?: number;
  /** Share of instances that never re-probe a primary while a fallback serves (default 0.3). */
  unprobedShare?: number;
  /** Chance per instance per minute of going silent for good (default 0.02). */
  silenceRate?: number;
  /** False: providers fail only through forceOutage (benchmarks); default true, outages come by themselves. */
  autoOutages?: boolean;
  /** Wire calls in flight at most; the rest wait their turn (default 64). */
  maxInFlight?: number;
  /** Deterministic randomness when set. */
  seed?: number;
  log?: (line: string) => void;
}

export interface SimulatorStats {
  elapsedMs: number;
  live: number;
  silent: number;
  checks: number;
  confirms: number;
  events: number;
  failovers: number;
  reports: number;
  errors: number;
  lastError: string | null;
  outages: Record<string, "up" | "down" | "flapping">;
  down: Record<string, number>;
}

/** A seeded PRNG (mulberry32) so a run can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Breaker {
  state: CircuitState;
  failures: number;
  successes: number;
  openedAt: number;
  lastSent: number;
  lastReportAt: number;
}

/** A provider's real health over time: up, down, or flapping (down and up every few seconds). */
class Outage {
  mode: "up" | "down" | "flapping" = "up";
  until = 0;
  constructor(
    private readonly rand: () => number,
    private nextAt: number,
  ) {}

  tick(now: number) {
    if (this.mode !== "up" && now >= this.until) {
      this.mode = "up";
      if (Number.isFinite(this.nextAt)) this.nextAt = now + 60_000 + this.rand() * 240_000;
    } else if (this.mode === "up" && now >= this.nextAt) {
      this.mode = this.rand() < 0.3 ? "flapping" : "down";
      this.until = now + 60_000 + this.rand() * 180_000;
    }
  }

  failing(now: number): boolean {
    if (this.mode === "down") return true;
    if (this.mode === "flapping") return Math.floor(now / 7_000) % 2 === 0;
    return false;
  }
}

class Instance {
  readonly id: string;
  silent = false;
  readonly breakers = new Map<string, Breaker>();
  private buffer: MetadataEvent[] = [];
  private lastFlush: number;

  constructor(
    private readonly sim: FleetSimulator,
    index: number,
    readonly chain: string[],
    readonly reprobes: boolean,
    now: number,
  ) {
    this.id = `sim-${sim.runId}-${String(index).padStart(4, "0")}`;
    this.lastFlush = now - Math.floor(sim.rand() * FLUSH_MS);
    for (const p of chain) {
      this.breakers.set(p, {
        state: "closed",
        failures: 0,
        successes: 0,
        openedAt: 0,
        lastSent: 0,
        lastReportAt: now - Math.floor(sim.rand() * HEARTBEAT_MS),
      });
    }
  }

  private move(provider: string, b: Breaker, state: CircuitState, now: number) {
    if (b.state === state) return;
    b.state = state;
    if (state === "open") {
      b.openedAt = now;
      b.successes = 0;
    }
    if (state === "closed") {
      b.failures = 0;
      b.successes = 0;
    }
    this.report(provider, b, now);
  }

  report(provider: string, b: Breaker, now: number) {
    // reported_at strictly increases per instance × provider, as the SDK's clock does.
    const at = Math.max(now, b.lastSent + 1);
    b.lastSent = at;
    b.lastReportAt = now;
    this.sim.send("report", () =>
      this.sim.client.breakerReport(this.sim.opts.projectId, {
        provider,
        state: b.state,
        failure_count: b.failures,
        success_count: b.successes,
        reported_at: new Date(at).toISOString(),
        sdk_instance_id: this.id,
      }),
    );
  }

  /** One report per provider now (what an SDK sends at start and on its heartbeat). */
  reportAll(now: number) {
    for (const [p, b] of this.breakers) this.report(p, b, now);
  }

  tick(now: number) {
    if (this.silent) return;
    for (const [p, b] of this.breakers) if (now - b.lastReportAt >= HEARTBEAT_MS) this.report(p, b, now);
    if (this.sim.rand() < (this.sim.opts.callRate ?? 0.5)) this.call(now);
    if (now - this.lastFlush >= FLUSH_MS) this.flush(now);
  }

  flush(now: number) {
    this.lastFlush = now;
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, 50);
      this.sim.stats.events += batch.length;
      this.sim.send("ingest", () => this.sim.client.ingest(batch));
    }
  }

  private call(now: number) {
    const primary = this.chain[0] as string;
    const inputTokens = 200 + Math.floor(this.sim.rand() * 1800);
    const outputTokens = 50 + Math.floor(this.sim.rand() * 400);
    const callId = randomUUID();
    let reason: "circuit_open" | "primary_error" | null = null;
    let attempt = 0;
    let served: string | null = null;
    for (const p of this.chain) {
      const b = this.breakers.get(p) as Breaker;
      if (b.state === "open") {
        // A fallback that serves keeps an unprobing instance off its primary for good.
        const fallbackHealthy = this.chain.some((q) => q !== p && this.breakers.get(q)?.state === "closed");
        const due = now - b.openedAt >= RECOVERY_MS && (this.reprobes || !fallbackHealthy);
        if (!due) {
          reason ??= "circuit_open";
          continue;
        }
        this.move(p, b, "half_open", now);
      }
      const failing = this.sim.outages.get(p)?.failing(now) ?? false;
      const ok = failing ? this.sim.rand() < 0.05 : this.sim.rand() < 0.995;
      if (!ok) {
        this.buffer.push(this.event(p, callId, attempt, now, "error", primary, reason, inputTokens, 0));
        attempt++;
        reason ??= "primary_error";
        b.failures++;
        if (b.state === "half_open" || b.failures >= FAILURE_THRESHOLD) this.move(p, b, "open", now);
        else this.report(p, b, now);
        continue;
      }
      if (b.state === "half_open") {
        b.successes++;
        if (b.successes >= SUCCESS_THRESHOLD) this.move(p, b, "closed", now);
        else this.report(p, b, now);
      } else if (b.failures > 0) {
        b.failures = 0;
      }
      served = p;
      this.buffer.push(
        this.event(p, callId, attempt, now, "success", primary, reason, inputTokens, outputTokens),
      );
      break;
    }
    if (served !== primary && served !== null) this.sim.stats.failovers++;
    const fallbacks = this.chain.slice(1);
    this.sim.send("check", async () => {
      const verdict = await this.sim.client.check({
        model: modelOf(primary),
        provider: primary,
        fallback_providers: fallbacks,
        fallback_models: fallbacks.map(modelOf),
        estimated_input_tokens: inputTokens,
      });
      if (served && verdict.reservation_id) {
        this.sim.stats.confirms++;
        await this.sim.client.confirm({
          reservation_id: verdict.reservation_id,
          model: modelOf(served),
          provider: served,
          is_provider_fallback: served !== primary,
          call_id: callId,
          token_details: { input_tokens: inputTokens, output_tokens: outputTokens },
        });
      }
    });
  }

  private event(
    provider: string,
    callId: string,
    attempt: number,
    now: number,
    status: "success" | "error",
    primary: string,
    reason: "circuit_open" | "primary_error" | null,
    input: number,
    output: number,
  ): MetadataEvent {
    const fallback = provider !== primary;
    return {
      model: modelOf(provider),
      provider,
      modality: "text",
      input_tokens: input,
      output_tokens: output,
      latency_ms:
        status === "error"
          ? 100 + Math.floor(this.sim.rand() * 2000)
          : 300 + Math.floor(this.sim.rand() * 2500),
      status,
      is_model_fallback: false,
      is_provider_fallback: fallback,
      requested_provider: fallback ? primary : null,
      requested_model: fallback ? modelOf(primary) : null,
      failover_reason: fallback ? reason : null,
      failover_error_class: status === "error" ? "APIConnectionError" : null,
      attempt_index: attempt,
      call_id: callId,
      sdk_instance_id: this.id,
      // µs precision and unique per instance (the legacy dedup key is timestamp + instance).
      timestamp: new Date(now)
        .toISOString()
        .replace("Z", `${String(this.sim.nextMicros()).padStart(3, "0")}Z`),
    };
  }
}

export class FleetSimulator {
  readonly client: WireClient;
  readonly rand: () => number;
  readonly runId: string;
  readonly outages = new Map<string, Outage>();
  readonly instances: Instance[] = [];
  readonly stats: SimulatorStats;
  private readonly started = Date.now();
  private readonly inflight = new Set<Promise<void>>();
  private micros = 0;

  constructor(readonly opts: SimulatorOptions) {
    if (opts.providers.length === 0) throw new Error("at least one provider");
    this.client = new WireClient(opts.baseUrl, opts.apiKey);
    this.rand = rng(opts.seed ?? Math.floor(Math.random() * 2 ** 31));
    this.runId = Math.floor(this.rand() * 36 ** 4)
      .toString(36)
      .padStart(4, "0");
    const now = Date.now();
    opts.providers.forEach((p, i) => {
      // The first outage comes soon (a short run shows one), later ones every few minutes.
      const first =
        opts.autoOutages === false
          ? Number.POSITIVE_INFINITY
          : now + 10_000 + i * 25_000 + this.rand() * 20_000;
      this.outages.set(p, new Outage(this.rand, first));
    });
    for (let i = 0; i < opts.instances; i++) {
      // Most instances put the first provider first; some route elsewhere first.
      const start = this.rand() < 0.7 ? 0 : Math.floor(this.rand() * opts.providers.length);
      const chain = [...opts.providers.slice(start), ...opts.providers.slice(0, start)];
      this.instances.push(new Instance(this, i, chain, this.rand() >= (opts.unprobedShare ?? 0.3), now));
    }
    this.stats = {
      elapsedMs: 0,
      live: opts.instances,
      silent: 0,
      checks: 0,
      confirms: 0,
      events: 0,
      failovers: 0,
      reports: 0,
      errors: 0,
      lastError: null,
      outages: {},
      down: {},
    };
  }

  /** Puts `provider` into an outage now, for `forMs` (benchmarks and demos). */
  forceOutage(provider: string, mode: "down" | "flapping", forMs: number): void {
    const o = this.outages.get(provider);
    if (!o) throw new Error(`${provider} is not in this fleet's chain`);
    o.mode = mode;
    o.until = Date.now() + forMs;
  }

  nextMicros(): number {
    this.micros = (this.micros + 1) % 1000;
    return this.micros;
  }

  private readonly waiting: (() => void)[] = [];

  /** Runs one wire call in the background (at most `maxInFlight` at once), counting it and any failure. */
  send(kind: "check" | "ingest" | "report", fn: () => Promise<unknown>): void {
    if (kind === "check") this.stats.checks++;
    if (kind === "report") this.stats.reports++;
    const start = () => {
      const p: Promise<void> = fn()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.stats.errors++;
          this.stats.lastError = err instanceof Error ? err.message : String(err);
        })
        .finally(() => {
          this.inflight.delete(p);
          this.waiting.shift()?.();
        });
      this.inflight.add(p);
    };
    if (this.inflight.size < (this.opts.maxInFlight ?? 64)) start();
    else this.waiting.push(start);
  }

  /** Waits until no more than `max` calls are in flight and none is waiting (back-pressure for seeding). */
  async drain(max = 0): Promise<void> {
    while (this.waiting.length > 0 || this.inflight.size > max) await Promise.race(this.inflight);
  }

  /** Every instance reports every provider once (an SDK's first snapshots), `concurrency` at a time. */
  async reportAllOnce(concurrency = 32): Promise<void> {
    const now = Date.now();
    for (const inst of this.instances) {
      inst.reportAll(now);
      await this.drain(concurrency);
    }
    await this.drain();
  }

  /** One second of the fleet. */
  tick(now = Date.now()): void {
    this.stats.elapsedMs = now - this.started;
    for (const [p, o] of this.outages) {
      o.tick(now);
      this.stats.outages[p] = o.mode;
    }
    const silenceChance = (this.opts.silenceRate ?? 0.02) / 60;
    for (const inst of this.instances) {
      if (!inst.silent && this.rand() < silenceChance) inst.silent = true;
      inst.tick(now);
    }
    const down: Record<string, number> = {};
    let silent = 0;
    for (const inst of this.instances) {
      if (inst.silent) {
        silent++;
        continue;
      }
      for (const [p, b] of inst.breakers) if (b.state === "open") down[p] = (down[p] ?? 0) + 1;
    }
    this.stats.down = down;
    this.stats.silent = silent;
    this.stats.live = this.instances.length - silent;
  }

  /** Runs for `minutes` (until `signal` aborts), calling `onProgress` once a second. */
  async run(
    minutes: number,
    onProgress?: (s: SimulatorStats) => void,
    signal?: AbortSignal,
  ): Promise<SimulatorStats> {
    const end = Date.now() + minutes * 60_000;
    const now = Date.now();
    for (const inst of this.instances) inst.reportAll(now);
    while (Date.now() < end && !signal?.aborted) {
      this.tick();
      onProgress?.(this.stats);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const last = Date.now();
    for (const inst of this.instances) if (!inst.silent) inst.flush(last);
    await this.drain();
    this.tick(last);
    return this.stats;
  }
}

/** "1:05/5:00 · 48 live, 2 silent · 812 checks · 3,120 events (140 failovers) · 402 reports · Down: openai 12". */
export function progressLine(s: SimulatorStats, minutes: number): string {
  const clock = (ms: number) =>
    `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}`;
  const down = Object.entries(s.down)
    .filter(([, n]) => n > 0)
    .map(([p, n]) => `${p} ${n}`)
    .join(", ");
  const outages = Object.entries(s.outages)
    .filter(([, m]) => m !== "up")
    .map(([p, m]) => `${p} ${m}`)
    .join(", ");
  return [
    `${clock(s.elapsedMs)}/${clock(minutes * 60_000)}`,
    `${s.live} live, ${s.silent} silent`,
    `${s.checks.toLocaleString("en")} checks`,
    `${s.events.toLocaleString("en")} events (${s.failovers.toLocaleString("en")} failovers)`,
    `${s.reports.toLocaleString("en")} reports`,
    `Down: ${down || "none"}`,
    `outage: ${outages || "none"}`,
    ...(s.errors > 0 ? [`${s.errors} errors`] : []),
  ].join(" · ");
}
