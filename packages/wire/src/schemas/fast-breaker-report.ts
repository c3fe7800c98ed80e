import { BREAKER_REPORT_MAX_FUTURE_MS, CIRCUIT_STATES } from "@breakwater/core";
import { PROVIDER_NAMES, parseInstant, SDK_INSTANCE_ID_MAX } from "./common";
import type { BreakerReportInput } from "./requests";

const PROVIDERS: ReadonlySet<unknown> = new Set(PROVIDER_NAMES);
const STATES: ReadonlySet<unknown> = new Set(CIRCUIT_STATES);
const KEYS: ReadonlySet<string> = new Set([
  "provider",
  "state",
  "failure_count",
  "success_count",
  "reported_at",
  "sdk_instance_id",
]);
const INT32_MAX = 2_147_483_647;
const isCount = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= INT32_MAX;

/**
 * The breaker report's hot-path validator (a fleet sends 5,000 heartbeats a second): it accepts
 * only what `breakerReport` accepts and returns the same output; anything else returns null, so
 * the zod schema decides and words the 422.
 */
export function fastBreakerReport(body: unknown, nowMs = Date.now()): BreakerReportInput | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  let n = 0;
  for (const k of Object.keys(b)) {
    if (!KEYS.has(k)) return null;
    n++;
  }
  if (n !== KEYS.size) return null;
  const { provider, state, failure_count, success_count, reported_at, sdk_instance_id } = b;
  if (!PROVIDERS.has(provider) || !STATES.has(state) || !isCount(failure_count) || !isCount(success_count))
    return null;
  if (
    typeof sdk_instance_id !== "string" ||
    sdk_instance_id.length === 0 ||
    sdk_instance_id.length > SDK_INSTANCE_ID_MAX
  )
    return null;
  if (typeof reported_at !== "string") return null;
  const at = parseInstant(reported_at);
  if (!at || at.date.getTime() > nowMs + BREAKER_REPORT_MAX_FUTURE_MS) return null;
  return {
    provider: provider as BreakerReportInput["provider"],
    state: state as BreakerReportInput["state"],
    failure_count,
    success_count,
    reported_at: at,
    sdk_instance_id,
  };
}
