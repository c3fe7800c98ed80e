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

/** An instant at microsecond precision, and its canonical UTC text (6 fractional digits). */
export interface Instant {
  /** Microseconds since the epoch (exact: parseInstant refuses instants outside about 1685–2255). */
  micros: number;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` */
  iso: string;
  date: Date;
}

const DAY_MS = 86_400_000;

/** Days from 1970-01-01 to a proleptic Gregorian date (month 1–12); exact for any year. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The value of `n` ASCII digits of `t` from `at`, or -1 when one of them is not a digit. */
function digits(t: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = t.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

const FRACTION_PAD = ["000000", "00000", "0000", "000", "00", "0", ""];

/**
 * Parses an RFC 3339 timestamp that carries a UTC offset
 * (`YYYY-MM-DD[Tt]HH:MM:SS[.f{1,9}](Z|z|±HH:MM)`); digits past the microsecond are truncated
 * (Postgres keeps µs). Null when the text is not such a timestamp, has no offset, or names an
 * impossible date. Every event of an ingest batch passes here, so it reads the characters itself:
 * no regular expression and no Date arithmetic (a quarter of the former cost).
 */
export function parseInstant(text: string): Instant | null {
  const len = text.length;
  if (len < 20 || len > 35) return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
    return null;
  }
  if (second < 0 || second > 59 || day > daysInMonth(year, month)) return null;
  const sep = text.charCodeAt(10);
  if (
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    (sep !== 84 && sep !== 116) || // T t
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  ) {
    return null;
  }
  // Fraction: 1–9 digits after a dot; the first six are the microseconds.
  let at = 19;
  let fracMicros = 0;
  let fracText = "000000";
  if (text.charCodeAt(at) === 46) {
    const from = ++at;
    while (at < len && at - from < 9) {
      const c = text.charCodeAt(at) - 48;
      if (c < 0 || c > 9) break;
      at++;
    }
    const n = at - from;
    if (n === 0) return null;
    fracText = n >= 6 ? text.slice(from, from + 6) : text.slice(from, at) + FRACTION_PAD[n];
    fracMicros = digits(fracText, 0, 6);
  }
  // Offset: Z, z or ±HH:MM, and nothing after it.
  let offsetMs = 0;
  const o = text.charCodeAt(at);
  if (o === 90 || o === 122) {
    if (at + 1 !== len) return null;
  } else if (o === 43 || o === 45) {
    if (at + 6 !== len || text.charCodeAt(at + 3) !== 58) return null;
    const oh = digits(text, at + 1, 2);
    const om = digits(text, at + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return null;
    offsetMs = (o === 45 ? -1 : 1) * (oh * 60 + om) * 60_000;
  } else {
    return null;
  }
  const epochMs =
    daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 - offsetMs;
  const micros = epochMs * 1000 + fracMicros;
  // Microseconds since the epoch stay exact (a safe integer) from about 1685 to 2255; an instant
  // outside that span is refused rather than stored off by a rounding.
  if (!Number.isSafeInteger(micros)) return null;
  // In UTC already (the usual case) the canonical text is the input's own fields.
  const iso =
    offsetMs === 0
      ? `${text.slice(0, 10)}T${text.slice(11, 19)}.${fracText}Z`
      : `${new Date(epochMs).toISOString().slice(0, 19)}.${fracText}Z`;
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
