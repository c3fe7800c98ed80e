/**
 * USD amounts and hint ratios as JSON numbers that always read as floats (`0.0`, `20.0`): Python's
 * json turns `20` into an int and the SDK's live tests assert floats. Never NaN or Infinity — a
 * non-finite amount is a bug upstream and must not reach a strict SDK parser.
 */
export function floatJson(x: number): string {
  if (!Number.isFinite(x)) throw new Error("non-finite amount in a wire answer");
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return `${x === 0 ? 0 : x}.0`;
  return JSON.stringify(x);
}

/** The verdict part of a check answer, as the budgets core returns it. */
export interface CheckVerdict {
  allowed: boolean;
  mode: "alert_only" | "hard_deny";
  remainingBudget: number;
  budgetLimit: number;
  currentUsage: number;
  reservationId: string | null;
  deniedByPeriod: "daily" | "weekly" | "monthly" | "agent_run" | "tag" | "run_stopped" | null;
  runControl: { reason: string } | null;
}

/** What the check request opted in to (spec §1), and the run it named. */
export interface CheckOptIns {
  failoverDirectiveVersion: boolean;
  runDirectiveVersion: boolean;
  priceHintsVersion: boolean;
  agentRunId: string | null;
}

// Serialized price hints per hints object: the pricing core hands out one shared, frozen object
// per chain and bracket, so the text is built once per object.
const hintsText = new WeakMap<object, string>();

function priceHintsJson(hints: Record<string, number>): string {
  let text = hintsText.get(hints);
  if (text === undefined) {
    text = "{";
    let first = true;
    for (const p of Object.keys(hints)) {
      text += `${first ? "" : ","}${JSON.stringify(p)}:${floatJson(hints[p]!)}`;
      first = false;
    }
    text += "}";
    // Only frozen objects are remembered: a mutable one could change after this call.
    if (Object.isFrozen(hints)) hintsText.set(hints, text);
  }
  return text;
}

/**
 * Serialises a budget-check answer with exactly the documented keys (spec §0, §1, §8), in the
 * reference server's key order. With a directive opt-in (failover or run) every null optional key
 * is omitted (exclude-none); without one, `reservation_id`, `denied_by_period`, `price_hints`,
 * `failover_directive` and `run_control` are explicit nulls. `price_hints` is stated only for
 * `price_hints_version` "1", the failover directive only for `failover_directive_version` "1", and
 * `run_control` only for `run_directive_version` "1" on a run_stopped deny of the requested run.
 * Built as one string, key by key (it runs on every check).
 */
export function serializeCheckResponse(
  v: CheckVerdict,
  projectId: string,
  opt: CheckOptIns,
  extras: {
    priceHints: Record<string, number> | null;
    failoverTuningAllowed: boolean;
  },
): string {
  const excludeNone = opt.failoverDirectiveVersion || opt.runDirectiveVersion;
  const stopped = !v.allowed && v.deniedByPeriod === "run_stopped";
  const mode = stopped ? "hard_deny" : v.mode;
  const remaining = stopped ? 0 : v.remainingBudget;

  let out = `{"allowed":${v.allowed ? "true" : "false"},"remaining_budget":${floatJson(remaining)}`;
  if (v.allowed && v.reservationId) out += `,"reservation_id":${JSON.stringify(v.reservationId)}`;
  else if (!excludeNone) out += ',"reservation_id":null';
  out += `,"mode":"${mode}","budget_limit":${floatJson(v.budgetLimit)},"current_usage":${floatJson(v.currentUsage)}`;
  if (!v.allowed && v.deniedByPeriod) out += `,"denied_by_period":"${v.deniedByPeriod}"`;
  else if (!excludeNone) out += ',"denied_by_period":null';
  out += `,"project_id":${JSON.stringify(projectId)}`;

  if (opt.priceHintsVersion && extras.priceHints)
    out += `,"price_hints":${priceHintsJson(extras.priceHints)}`;
  else if (!excludeNone) out += ',"price_hints":null';

  if (opt.failoverDirectiveVersion)
    out += `,"failover_directive":{"version":"1","failover_tuning_allowed":${extras.failoverTuningAllowed ? "true" : "false"}}`;
  else if (!excludeNone) out += ',"failover_directive":null';

  if (opt.runDirectiveVersion && stopped && v.runControl && opt.agentRunId) {
    const reason = (v.runControl.reason || "stopped").slice(0, 64);
    out += `,"run_control":{"version":"1","action":"terminate","agent_run_id":${JSON.stringify(opt.agentRunId)},"reason":${JSON.stringify(reason)}}`;
  } else if (!excludeNone) out += ',"run_control":null';
  return `${out}}`;
}
