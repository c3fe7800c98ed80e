import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastMetadataEvent } from "./fast-metadata-event";
import { metadataEvent } from "./requests";

const base = {
  model: "gpt-5.5",
  provider: "openai",
  modality: "text",
  input_tokens: 1200,
  output_tokens: 300,
  token_details: { input_tokens: 1200, output_tokens: 300, cached_input_tokens: 200 },
  latency_ms: 812.5,
  status: "success",
  is_model_fallback: false,
  is_provider_fallback: false,
  attempt_index: 0,
  call_id: "0b0c1f5e-8c1a-4c4b-9b0a-7d1f0e2a3b4c",
  sdk_instance_id: "sdk-1",
  timestamp: "2026-11-30T12:00:00.123456Z",
  agent_run_id: "run-1",
  tags: { team: "a" },
};

const keys = fc.constantFrom(
  ...Object.keys(base),
  "requested_provider",
  "requested_model",
  "failover_reason",
  "failover_error_class",
  "possibly_succeeded",
  "service_tier",
  "parent_agent_run_id",
  "agent_run_name",
  "provider_region",
  "lease_id",
  "deny_source",
  "deny_reason",
  "denied_by_period",
  "estimated_output_bound",
  "velocity_flags",
  "receipt_aggregate_count",
  "receipt_pricing_input_tokens",
  "media_usage",
  "extra",
);
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    null,
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    1e8 + 1,
    "",
    "x".repeat(33),
    "openai",
    "success",
    "budget_denied",
    "server",
    "primary_error",
    "TimeoutError",
    "Bad Class",
    ["repeat_size"],
    ["nope"],
    "2026-11-30T12:00:00Z",
    "2026-11-30T12:00:00",
    { input_tokens: 5 },
    { input_tokens: 5, is_estimated: true },
    { input_tokens: -5 },
    { image_count: 1, quality: null },
    true,
  ),
);

describe("fastMetadataEvent", () => {
  it("accepts the SDK's usual events exactly as the schema does", () => {
    expect(fastMetadataEvent(base)).toEqual(metadataEvent.parse(base));
    const denied = JSON.parse(
      JSON.stringify({
        ...base,
        status: "budget_denied",
        token_details: undefined,
        deny_source: "aggregate_replay",
        receipt_aggregate_count: 3,
        receipt_pricing_input_tokens: 2000,
        velocity_flags: ["repeat_size"],
      }),
    );
    expect(fastMetadataEvent(denied)).toEqual(metadataEvent.parse(denied));
  });

  it("never accepts what the schema rejects, and agrees with it whenever it answers", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, value, fc.boolean()), { maxLength: 4 }), (edits) => {
        const body: Record<string, unknown> = { ...base };
        for (const [k, v, drop] of edits) {
          if (drop) delete body[k];
          else body[k] = v;
        }
        const fast = fastMetadataEvent(body);
        const slow = metadataEvent.safeParse(body);
        if (fast !== null) {
          expect(slow.success).toBe(true);
          expect(fast).toEqual(slow.data);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
