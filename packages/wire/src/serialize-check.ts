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

/**
 * Serialises a budget-check answer with exactly the documented keys (spec §0, §1, §8), in the
 * reference server's key order. With a directive opt-in (failover or run) every null optional key
 * is omitted (exclude-none); without one, `reservation_id`, `denied_by_period`, `price_hints`,
 * `failover_directive` and `run_control` are explicit nulls. `price_hints` is stated only for
 * `price_hints_version` "1", the failover directive only for `failover_directive_version` "1", and
 * `run_control` only for `run_directive_version` "1" on a run_stopped deny of the requested run.
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
  const parts: string[] = [];
  const optional = (key: string, value: string | null) => {
    if (value !== null) parts.push(`"${key}":${value}`);
    else if (!excludeNone) parts.push(`"${key}":null`);
  };

  parts.push(`"allowed":${v.allowed ? "true" : "false"}`);
  parts.push(`"remaining_budget":${floatJson(remaining)}`);
  optional("reservation_id", v.allowed && v.reservationId ? JSON.stringify(v.reservationId) : null);
  parts.push(`"mode":"${mode}"`);
  parts.push(`"budget_limit":${floatJson(v.budgetLimit)}`);
  parts.push(`"current_usage":${floatJson(v.currentUsage)}`);
  optional("denied_by_period", !v.allowed && v.deniedByPeriod ? `"${v.deniedByPeriod}"` : null);
  parts.push(`"project_id":${JSON.stringify(projectId)}`);

  let hints: string | null = null;
  if (opt.priceHintsVersion && extras.priceHints) {
    const entries = Object.keys(extras.priceHints).map(
      (p) => `${JSON.stringify(p)}:${floatJson(extras.priceHints![p]!)}`,
    );
    hints = `{${entries.join(",")}}`;
  }
  optional("price_hints", hints);
  optional(
    "failover_directive",
    opt.failoverDirectiveVersion
      ? `{"version":"1","failover_tuning_allowed":${extras.failoverTuningAllowed ? "true" : "false"}}`
      : null,
  );

  let runControl: string | null = null;
  if (opt.runDirectiveVersion && stopped && v.runControl && opt.agentRunId) {
    const reason = (v.runControl.reason || "stopped").slice(0, 64);
    runControl = `{"version":"1","action":"terminate","agent_run_id":${JSON.stringify(opt.agentRunId)},"reason":${JSON.stringify(reason)}}`;
  }
  optional("run_control", runControl);
  return `{${parts.join(",")}}`;
}
