import {
  AGENT_RUN_ID_MAX,
  AGENT_RUN_NAME_MAX,
  CALL_STATUSES,
  CANONICAL_UUID_RE,
  DENY_SOURCES,
  FAILOVER_ERROR_CLASS_MAX,
  FAILOVER_ERROR_CLASS_RE,
  FAILOVER_REASONS,
  MODEL_MAX,
  PROVIDER_NAMES,
  PROVIDER_REGION_MAX,
  parseInstant,
  SERVICE_TIER_MAX,
  TOKEN_KEYS,
  TOKEN_MAX,
  VELOCITY_FLAGS,
} from "./common";
import type { MetadataEventInput } from "./requests";

type Check = (v: unknown) => boolean;

const str =
  (max: number, min = 0): Check =>
  (v) =>
    typeof v === "string" && v.length >= min && v.length <= max;
const oneOf = (values: readonly string[]): Check => {
  const set = new Set<unknown>(values);
  return (v) => set.has(v);
};
const int =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max;
const bool: Check = (v) => typeof v === "boolean";
const tokens = int(0, TOKEN_MAX);

// key → [check, nullable]; the special keys (timestamp, token_details, media_usage, tags) are handled below.
// A Map, not an object literal: a request key named like an Object.prototype member (`constructor`,
// `__proto__`) must find nothing here rather than the prototype's function.
const FIELDS = new Map<string, [Check, boolean]>(
  Object.entries({
    model: [str(MODEL_MAX), false],
    provider: [oneOf(PROVIDER_NAMES), false],
    modality: [str(64), false],
    input_tokens: [tokens, false],
    output_tokens: [tokens, false],
    latency_ms: [(v) => typeof v === "number" && Number.isFinite(v) && v >= 0, false],
    status: [oneOf(CALL_STATUSES), false],
    is_model_fallback: [bool, false],
    is_provider_fallback: [bool, false],
    requested_provider: [oneOf(PROVIDER_NAMES), true],
    requested_model: [str(MODEL_MAX), true],
    failover_reason: [oneOf(FAILOVER_REASONS), true],
    failover_error_class: [
      (v) => typeof v === "string" && v.length <= FAILOVER_ERROR_CLASS_MAX && FAILOVER_ERROR_CLASS_RE.test(v),
      true,
    ],
    attempt_index: [int(0, 10_000), false],
    call_id: [(v) => typeof v === "string" && v.length === 36 && CANONICAL_UUID_RE.test(v), false],
    possibly_succeeded: [bool, true],
    service_tier: [str(SERVICE_TIER_MAX), true],
    sdk_instance_id: [str(256, 1), false],
    agent_run_id: [str(AGENT_RUN_ID_MAX), true],
    parent_agent_run_id: [str(AGENT_RUN_ID_MAX), true],
    agent_run_name: [str(AGENT_RUN_NAME_MAX), true],
    provider_region: [str(PROVIDER_REGION_MAX), true],
    lease_id: [str(64), true],
    deny_source: [oneOf(DENY_SOURCES), true],
    deny_reason: [str(64), true],
    denied_by_period: [str(32), true],
    estimated_output_bound: [tokens, true],
    velocity_flags: [
      (v) => {
        if (!Array.isArray(v) || v.length > 8) return false;
        for (const f of v) if (!FLAGS.has(f)) return false;
        return true;
      },
      true,
    ],
    receipt_aggregate_count: [int(1, TOKEN_MAX), true],
    receipt_pricing_input_tokens: [tokens, true],
  } satisfies Record<string, [Check, boolean]>),
);
const FLAGS = new Set<unknown>(VELOCITY_FLAGS);
const REQUIRED = [
  "model",
  "provider",
  "input_tokens",
  "output_tokens",
  "latency_ms",
  "status",
  "is_model_fallback",
  "call_id",
  "sdk_instance_id",
  "timestamp",
];
const TOKEN_KEY_SET = new Set<string>([...TOKEN_KEYS, "is_estimated"]);

function fastTokenDetails(v: unknown): Record<string, number | boolean> | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const td = v as Record<string, unknown>;
  for (const k of Object.keys(td)) if (!TOKEN_KEY_SET.has(k)) return null;
  const out: Record<string, number | boolean> = {};
  for (const k of TOKEN_KEYS) {
    const n = td[k];
    if (n === undefined) out[k] = 0;
    else if (tokens(n)) out[k] = n as number;
    else return null;
  }
  if (td.is_estimated === undefined) out.is_estimated = false;
  else if (typeof td.is_estimated === "boolean") out.is_estimated = td.is_estimated;
  else return null;
  return out;
}

/**
 * Ingest's hot-path validator for one event as the SDKs send it: accepts only what
 * `metadataEvent` accepts and returns the same output, or null so the zod schema decides (and
 * words the 422). Media events take the schema path.
 */
export function fastMetadataEvent(body: unknown): MetadataEventInput | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  for (const k of REQUIRED) if (!Object.hasOwn(b, k) || b[k] === undefined) return null;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(b)) {
    const v = b[k];
    if (k === "timestamp") {
      if (typeof v !== "string") return null;
      const at = parseInstant(v);
      if (!at) return null;
      out.timestamp = at;
    } else if (k === "token_details") {
      if (v === null) out.token_details = null;
      else {
        const td = fastTokenDetails(v);
        if (!td) return null;
        out.token_details = td;
      }
    } else if (k === "media_usage") {
      if (v !== null) return null;
      out.media_usage = null;
    } else if (k === "tags") {
      out.tags = v;
    } else {
      const spec = FIELDS.get(k);
      if (!spec) return null;
      if (v === null) {
        if (!spec[1]) return null;
        out[k] = null;
      } else if (spec[0](v)) {
        out[k] = k === "velocity_flags" ? [...(v as string[])] : v;
      } else {
        return null;
      }
    }
  }
  if (out.modality === undefined) out.modality = "text";
  if (out.is_provider_fallback === undefined) out.is_provider_fallback = false;
  if (out.attempt_index === undefined) out.attempt_index = 0;
  if (out.receipt_pricing_input_tokens != null && out.receipt_aggregate_count == null) return null;
  return out as MetadataEventInput;
}
