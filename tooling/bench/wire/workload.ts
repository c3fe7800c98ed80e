/**
 * What the benchmark sends: budget-check bodies and metadata events in exactly the shapes the
 * shipped SDKs put on the wire (TS `budget.ts` buildCheckRequest / `serializeMetadataEvent`, PY
 * `_build_check_request` / `MetadataEvent`), so both servers parse realistic bytes.
 */
import { randomUUID } from "node:crypto";
import { TOKEN_KEYS } from "../../../packages/wire/src/schemas/common";

/**
 * The table the bare ingest writes, in a database of its own (`<bench database>_ref`, created
 * fresh each run by run.ts and migrated with the product's own migrations): the product's
 * `metadata_events` itself — partitioned by day, with its DEFAULT partition, the same day partitions
 * as Breakwater's table (made by the worker's partition code), its unique keys and indexes — so the
 * reference pays for the same tuple routing, index maintenance and duplicate probes as the product,
 * on a table that only it grows.
 */
export const REFERENCE_EVENTS_TABLE = "metadata_events";

/** The reference ingest's database: the bench database's name with this suffix, on the same server. */
export const REFERENCE_DATABASE_SUFFIX = "_ref";

/**
 * The check mix, ten bodies per cycle. Run-less untagged checks are what SDKs issue most, but the
 * SDK answers repeats of them from its 5 s allow cache, so at the server they are only the cache
 * misses; tagged and run-scoped checks bypass that cache and always arrive. Hence half run-less
 * (TS chat shape and PY shape, several models), three in ten run-scoped, two in ten tagged. Every
 * body opts into all three directives, as current SDKs do.
 */
export function checkBodies(): string[] {
  const chains: [string, string, string[], string[]][] = [
    ["openai", "gpt-5.5", ["anthropic"], ["claude-sonnet-5"]],
    ["anthropic", "claude-sonnet-4-5", ["openai", "google"], ["gpt-5.4", "gemini-2.5-pro"]],
    ["openai", "gpt-5-mini", [], []],
    ["google", "gemini-2.5-flash", ["openai"], ["gpt-4.1-mini"]],
  ];
  const optIns = { failover_directive_version: "1", price_hints_version: "1", run_directive_version: "1" };
  const bodies: string[] = [];
  for (let i = 0; i < 100; i++) {
    const [provider, model, fallbackProviders, fallbackModels] = chains[i % chains.length]!;
    const estimated = 200 + ((i * 7919) % 6000);
    const slot = i % 10;
    if (slot < 5 && slot % 2 === 0) {
      // TS runtime, chat completions: no modality key, opt-ins before the fallback arrays.
      bodies.push(
        JSON.stringify({
          estimated_input_tokens: estimated,
          model,
          provider,
          ...optIns,
          fallback_providers: fallbackProviders,
          fallback_models: fallbackModels,
        }),
      );
    } else if (slot < 5) {
      // PY runtime: modality always present, None-valued keys dropped.
      bodies.push(
        JSON.stringify({
          estimated_input_tokens: estimated,
          model,
          provider,
          modality: "text",
          fallback_providers: fallbackProviders,
          fallback_models: fallbackModels,
          failover_directive_version: "1",
          run_directive_version: "1",
          price_hints_version: "1",
        }),
      );
    } else if (slot < 8) {
      bodies.push(
        JSON.stringify({
          estimated_input_tokens: estimated,
          model,
          provider,
          ...optIns,
          fallback_providers: fallbackProviders,
          fallback_models: fallbackModels,
          agent_run_id: `agent-run-${(i * 13) % 32}`,
        }),
      );
    } else {
      bodies.push(
        JSON.stringify({
          estimated_input_tokens: estimated,
          model,
          provider,
          ...optIns,
          fallback_providers: fallbackProviders,
          fallback_models: fallbackModels,
          tags: { team: ["search", "support", "billing"][i % 3]!, feature: `f${i % 7}` },
        }),
      );
    }
  }
  return bodies;
}

/** An SDK event as serialized on the wire (null optionals omitted, as both SDKs do). */
export type WireEvent = Record<string, unknown> & {
  call_id: string;
  timestamp: string;
  sdk_instance_id: string;
};

/**
 * One SDK instance's event stream: unique call ids, µs timestamps strictly increasing per
 * instance (the TS SDK's monotonic clock), runs that change every ~200 calls. Mix: 80 % success
 * (a fifth of them served by a provider fallback), 10 % errors, 10 % budget-denied receipts.
 */
export class EventStream {
  private micros: bigint;
  private n = 0;
  readonly sdkInstanceId = randomUUID();

  constructor(startMs = Date.now()) {
    this.micros = BigInt(startMs) * 1000n;
  }

  private nextTimestamp(): string {
    this.micros += 1n + BigInt(this.n % 17);
    const ms = Number(this.micros / 1000n);
    const fraction = (this.micros % 1_000_000n).toString().padStart(6, "0");
    return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}Z`;
  }

  next(): WireEvent {
    const n = this.n++;
    const kind = n % 10;
    const inRun = n % 2 === 0;
    const run = inRun
      ? {
          agent_run_id: `run-${this.sdkInstanceId.slice(0, 8)}-${Math.floor(n / 200)}`,
          agent_run_name: "nightly-triage",
        }
      : {};
    const tags =
      n % 3 === 0
        ? { tags: { team: ["search", "support", "billing"][Math.floor(n / 3) % 3]!, env: "prod" } }
        : {};
    const base = {
      model: "gpt-5.5",
      provider: "openai",
      modality: "text",
      is_model_fallback: false,
      is_provider_fallback: false,
      attempt_index: 0,
      call_id: randomUUID(),
      sdk_instance_id: this.sdkInstanceId,
      timestamp: this.nextTimestamp(),
    };
    if (kind === 8) {
      return {
        ...base,
        input_tokens: 0,
        output_tokens: 0,
        latency_ms: 1834.219,
        status: "error",
        failover_error_class: "APIConnectionError",
        ...run,
        ...tags,
      };
    }
    if (kind === 9) {
      return {
        ...base,
        input_tokens: 2400 + (n % 500),
        output_tokens: 0,
        latency_ms: 0,
        status: "budget_denied",
        deny_source: "server",
        deny_reason: "monthly",
        denied_by_period: "monthly",
        estimated_output_bound: 1024,
        ...run,
        ...tags,
      };
    }
    const input = 800 + ((n * 7919) % 9000);
    const output = 50 + ((n * 104729) % 1500);
    const cached = n % 4 === 0 ? Math.floor(input / 2) : 0;
    const details: Record<string, number> = {};
    for (const k of TOKEN_KEYS) details[k] = 0;
    details.input_tokens = input;
    details.output_tokens = output;
    details.cached_input_tokens = cached;
    details.reasoning_tokens = n % 5 === 0 ? Math.floor(output / 3) : 0;
    const fallback =
      kind === 7
        ? {
            model: "claude-sonnet-5",
            provider: "anthropic",
            is_provider_fallback: true,
            requested_provider: "openai",
            requested_model: "gpt-5.5",
            failover_reason: "primary_error",
            attempt_index: 1,
          }
        : {};
    return {
      ...base,
      ...fallback,
      input_tokens: input,
      output_tokens: output,
      token_details: details,
      latency_ms: 412.5 + (n % 977) + 0.123,
      status: "success",
      ...run,
      ...tags,
    };
  }

  batch(size: number): WireEvent[] {
    return Array.from({ length: size }, () => this.next());
  }
}
