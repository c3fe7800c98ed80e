import {
  copyTags,
  LOCAL_LANES,
  PROVIDER_IDS,
  TAG_KEY_MAX,
  TAG_VALUE_MAX,
  TAGS_MAX_KEYS,
  tagsProblem,
} from "@breakwater/core";
import { z } from "zod";

// Wire vocabulary of the SDK protocol (spec §0). Every object schema is strict: an unknown key is a
// 422, because the SDKs are strict too and a silently ignored field would hide a contract drift.

/** ProviderName values: one list for the whole project, kept with the price catalogue in core. */
export const PROVIDER_NAMES = PROVIDER_IDS;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The 13 TokenDetails counters (spec §0), in wire order. */
export const TOKEN_KEYS = [
  "input_tokens",
  "output_tokens",
  "cached_input_tokens",
  "cache_creation_5m_tokens",
  "cache_creation_1h_tokens",
  "reasoning_tokens",
  "audio_input_tokens",
  "audio_output_tokens",
  "image_input_tokens",
  "image_output_tokens",
  "accepted_prediction_tokens",
  "rejected_prediction_tokens",
  "tool_use_input_tokens",
] as const;

/** Providers that run on the customer's own hardware: a zero-cost lane in price hints. */
export const LOCAL_PROVIDERS: ReadonlySet<string> = LOCAL_LANES;

export const MODALITIES = ["text", "image", "audio", "video", "embedding"] as const;
export const BUDGET_MODES = ["alert_only", "hard_deny"] as const;
export const CALL_STATUSES = ["success", "error", "budget_denied"] as const;
export const CIRCUIT_STATES = ["closed", "open", "half_open"] as const;
export const FAILOVER_REASONS = ["circuit_open", "primary_error", "model_fallback", "cost_routed"] as const;
export const SERVICE_TIERS = [
  "auto",
  "default",
  "flex",
  "scale",
  "priority",
  "standard",
  "optimized",
] as const;
export const DENY_SOURCES = [
  "server",
  "sticky_replay",
  "local_enforcement",
  "lease_exhausted",
  "local_velocity",
  "run_terminated",
  "aggregate_replay",
] as const;
export const VELOCITY_FLAGS = ["repeat_size", "monotonic_growth", "rate_acceleration"] as const;
export const DENIED_BY_PERIODS = ["daily", "weekly", "monthly", "agent_run", "tag", "run_stopped"] as const;
export const INGEST_REJECTION_CODES = [
  "unknown_model",
  "unknown_service_tier",
  "invalid_tags",
  "tag_cardinality_exceeded",
  "unsupported_modality",
] as const;
export type IngestRejectionCode = (typeof INGEST_REJECTION_CODES)[number];

export const MODEL_MAX = 2048;
export const FALLBACK_MAX = 8;
export const AGENT_RUN_ID_MAX = 256;
export const AGENT_RUN_NAME_MAX = 255;
/** Tag bounds and rules are core's (one copy for the check and ingest alike). */
export { copyTags, TAG_KEY_MAX, TAG_VALUE_MAX, TAGS_MAX_KEYS, tagsProblem };
export const TOKEN_MAX = 100_000_000;
export const PROVIDER_REGION_MAX = 32;
export const SERVICE_TIER_MAX = 32;
export const SDK_INSTANCE_ID_MAX = 100;
export const FAILOVER_ERROR_CLASS_MAX = 64;
export const FAILOVER_ERROR_CLASS_RE = /^[A-Za-z][A-Za-z0-9_.]*$/;
/** Canonical lowercase UUID, exactly as the SDKs mint `call_id`/`report_id`. */
export const CANONICAL_UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const providerName = z.enum(PROVIDER_NAMES);
export const modality = z.enum(MODALITIES);
export const model = z.string().max(MODEL_MAX);
export const tokenCount = z.number().int().min(0).max(TOKEN_MAX);
export const callId = z.string().length(36).regex(CANONICAL_UUID_RE, "must be a canonical lowercase UUID");
export const agentRunId = z.string().max(AGENT_RUN_ID_MAX);

/** The 13 token counters (+ `is_estimated`, sent only when true). */
export const tokenDetails = z.strictObject({
  input_tokens: tokenCount.default(0),
  output_tokens: tokenCount.default(0),
  cached_input_tokens: tokenCount.default(0),
  cache_creation_5m_tokens: tokenCount.default(0),
  cache_creation_1h_tokens: tokenCount.default(0),
  reasoning_tokens: tokenCount.default(0),
  audio_input_tokens: tokenCount.default(0),
  audio_output_tokens: tokenCount.default(0),
  image_input_tokens: tokenCount.default(0),
  image_output_tokens: tokenCount.default(0),
  accepted_prediction_tokens: tokenCount.default(0),
  rejected_prediction_tokens: tokenCount.default(0),
  tool_use_input_tokens: tokenCount.default(0),
  is_estimated: z.boolean().default(false),
});
export type WireTokenDetails = z.output<typeof tokenDetails>;

const mediaCount = z.number().int().min(0).max(TOKEN_MAX).nullish();
const mediaSeconds = z.number().min(0).max(TOKEN_MAX).nullish();

/** Non-token quantities of a media call; inner keys may arrive as explicit nulls. */
export const mediaUsage = z.strictObject({
  image_count: mediaCount,
  generation_count: mediaCount,
  input_characters: mediaCount,
  video_seconds: mediaSeconds,
  audio_seconds: mediaSeconds,
  resolution: z.string().max(32).nullish(),
  quality: z.string().max(32).nullish(),
  is_estimated: z.boolean().default(false),
});
export type WireMediaUsage = z.output<typeof mediaUsage>;

/** Tags on a check: any violation is a 422 (ingest applies the same rule per event instead). */
export const tags = z.unknown().transform((value, ctx): Record<string, string> => {
  const problem = tagsProblem(value);
  if (problem) {
    ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return copyTags(value as Record<string, string>);
});

const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** An instant at microsecond precision, and its canonical UTC text (6 fractional digits). */
export interface Instant {
  /** Microseconds since the epoch (exact: parseInstant refuses instants outside about 1685–2255). */
  micros: number;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` */
  iso: string;
  date: Date;
}

/**
 * Parses an RFC 3339 timestamp that carries a UTC offset; digits past the microsecond are
 * truncated (Postgres keeps µs). Null when the text is not such a timestamp, has no offset, or
 * names an impossible date.
 */
export function parseInstant(text: string): Instant | null {
  const m = RFC3339_RE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = "", off] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const check = new Date(Date.UTC(2000, 0, 1, Number(h), Number(mi), Number(s)));
  check.setUTCFullYear(Number(y), month - 1, day);
  // 31 February rolls into March: reject dates that do not exist.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  const wholeUtc = check.getTime();
  let offsetMs = 0;
  if (off !== "Z" && off !== "z") {
    const sign = off!.startsWith("-") ? -1 : 1;
    const oh = Number(off!.slice(1, 3));
    const om = Number(off!.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMs = sign * (oh * 60 + om) * 60_000;
  }
  const epochMs = wholeUtc - offsetMs;
  const fracMicros = Number(frac.padEnd(6, "0").slice(0, 6));
  const micros = epochMs * 1000 + fracMicros;
  // Microseconds since the epoch stay exact (a safe integer) from about 1685 to 2255; an instant
  // outside that span is refused rather than stored off by a rounding.
  if (!Number.isSafeInteger(micros)) return null;
  const base = new Date(epochMs).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  const iso = `${base.slice(0, 19)}.${String(fracMicros).padStart(6, "0")}Z`;
  return { micros, iso, date: new Date(epochMs + Math.floor(fracMicros / 1000)) };
}

/** A timestamp string that must carry a UTC offset (spec §8); parsed to an Instant. */
export const instant = z.string().transform((value, ctx): Instant => {
  const parsed = parseInstant(value);
  if (!parsed) {
    ctx.addIssue({
      code: "custom",
      message: "Input should be an RFC 3339 datetime with a UTC offset",
      params: { pydanticType: "datetime_from_date_parsing" },
    });
    return z.NEVER;
  }
  return parsed;
});
