import {
  copyTags,
  FALLBACK_MAX,
  MODALITIES,
  MODEL_MAX,
  PROVIDER_NAMES,
  TOKEN_MAX,
  tagsProblem,
} from "./common";
import type { CheckRequest } from "./requests";

const PROVIDERS: ReadonlySet<unknown> = new Set(PROVIDER_NAMES);
const MODALITY_SET: ReadonlySet<unknown> = new Set(MODALITIES);
const KEYS: ReadonlySet<string> = new Set([
  "estimated_input_tokens",
  "model",
  "provider",
  "modality",
  "estimated_media",
  "fallback_providers",
  "fallback_models",
  "agent_run_id",
  "tags",
  "failover_directive_version",
  "run_directive_version",
  "price_hints_version",
  "uncounted_calls",
  "uncounted_tokens",
]);

const isModel = (v: unknown): v is string => typeof v === "string" && v.length <= MODEL_MAX;
const isCount = (v: unknown, max: number): v is number =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= max;

/**
 * The budget check's hot-path validator for the bodies the SDKs actually send. It accepts only
 * what `checkRequest` accepts and returns the same output; anything unusual (explicit nulls,
 * estimated_media, a bad value) returns null so the zod schema decides and words the 422.
 */
export function fastCheckRequest(body: unknown): CheckRequest | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  // Own keys against a Set: a key named like an Object.prototype member is simply unknown.
  for (const k of Object.keys(b)) if (!KEYS.has(k) || b[k] === null) return null;
  if (b.estimated_media !== undefined) return null;
  // Like the schema: the primary model must be non-empty (fallback models may be empty strings).
  if (
    !isCount(b.estimated_input_tokens, TOKEN_MAX) ||
    !isModel(b.model) ||
    b.model.length === 0 ||
    !PROVIDERS.has(b.provider)
  )
    return null;
  const modality = b.modality ?? "text";
  if (!MODALITY_SET.has(modality)) return null;
  const fp = b.fallback_providers ?? [];
  const fm = b.fallback_models ?? [];
  if (!Array.isArray(fp) || !Array.isArray(fm) || fp.length !== fm.length || fm.length > FALLBACK_MAX)
    return null;
  for (const p of fp) if (!PROVIDERS.has(p)) return null;
  for (const m of fm) if (!isModel(m)) return null;
  if (b.agent_run_id !== undefined && !(typeof b.agent_run_id === "string" && b.agent_run_id.length <= 256)) {
    return null;
  }
  for (const v of ["failover_directive_version", "run_directive_version", "price_hints_version"] as const) {
    if (b[v] !== undefined && b[v] !== "1") return null;
  }
  if (b.uncounted_calls !== undefined && !isCount(b.uncounted_calls, 1_000_000_000)) return null;
  if (b.uncounted_tokens !== undefined && !isCount(b.uncounted_tokens, Number.MAX_SAFE_INTEGER)) return null;
  let tags: Record<string, string> | undefined;
  if (b.tags !== undefined) {
    if (tagsProblem(b.tags) !== null) return null;
    tags = copyTags(b.tags as Record<string, string>);
  }
  const out: Record<string, unknown> = {
    estimated_input_tokens: b.estimated_input_tokens,
    model: b.model,
    provider: b.provider,
    modality,
    fallback_providers: fp,
    fallback_models: fm,
  };
  if (b.agent_run_id !== undefined) out.agent_run_id = b.agent_run_id;
  if (tags !== undefined) out.tags = tags;
  if (b.failover_directive_version !== undefined) out.failover_directive_version = "1";
  if (b.run_directive_version !== undefined) out.run_directive_version = "1";
  if (b.price_hints_version !== undefined) out.price_hints_version = "1";
  if (b.uncounted_calls !== undefined) out.uncounted_calls = b.uncounted_calls;
  if (b.uncounted_tokens !== undefined) out.uncounted_tokens = b.uncounted_tokens;
  return out as CheckRequest;
}
