import { z } from "zod";
import { newId } from "../ids";
import { BUDGET_TIMINGS, type BudgetDeps } from "./budget-deps";
import { budgetUnavailable, withRedis } from "./budget-redis";
import { budgetRuntimeCache, type ProjectBudgetRuntime, selectorMatches } from "./budget-runtime";
import { budgetKeys } from "./keys";
import { CHECK_SCRIPT, runScript } from "./lua";
import { nanosToUsd } from "./money";
import { ensureBudgetBuilt } from "./rebuild-budget-counters";
import { isAutoRun } from "./record-ingested-spend";
import { currentWindows, PERIOD_CODE } from "./windows";

export const checkBudgetInput = z.object({
  projectId: z.string().min(1),
  provider: z.string().min(1),
  model: z.string().min(1),
  estimatedInputTokens: z.number().int().min(0),
  fallbackProviders: z.array(z.string()).default([]),
  fallbackModels: z.array(z.string()).default([]),
  modality: z.string().default("text"),
  agentRunId: z.string().min(1).nullish(),
  tags: z.record(z.string(), z.string()).nullish(),
  uncountedCalls: z.number().int().min(0).default(0),
  uncountedTokens: z.number().int().min(0).default(0),
});
export type CheckBudgetInput = z.input<typeof checkBudgetInput>;

export type DeniedBy = "daily" | "weekly" | "monthly" | "agent_run" | "tag" | "run_stopped";

export interface CheckBudgetResult {
  allowed: boolean;
  /** "hard_deny" for run_stopped even on alert_only projects. */
  mode: "alert_only" | "hard_deny";
  /** USD, finite; they describe the binding period (the denying one, or on allow the one with least remaining). */
  remainingBudget: number;
  budgetLimit: number;
  currentUsage: number;
  /** Allow only; null when the model is unpriced (allowed without a reservation). */
  reservationId: string | null;
  deniedByPeriod: DeniedBy | null;
  /** Non-null only when the run is stopped. */
  runControl: { reason: string } | null;
}

const MAX_SCRIPT_NANOS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The pre-flight verdict (spec §1) from memory plus one Redis round trip: a Lua script folds the
 * fail-open tallies, reads usage and outstanding holds of every period window, applies the mode and
 * the scoped rules, and on allow reserves the estimated cost — all atomically, so concurrent checks
 * can never over-reserve. Touches Postgres only when the runtime is not cached or Redis has lost
 * the project's counters (then they are rebuilt first). Throws BUDGET_UNAVAILABLE fast when Redis
 * cannot answer.
 */
export async function checkBudget(deps: BudgetDeps, raw: CheckBudgetInput): Promise<CheckBudgetResult> {
  const input = checkBudgetInput.parse(raw);
  const runtime = await budgetRuntimeCache(deps).get(input.projectId);
  const estimate = deps.pricing.reservationNanos({
    provider: input.provider,
    model: input.model,
    modality: input.modality,
    estimatedInputTokens: input.estimatedInputTokens,
    outputTokenBound: deps.config.DEFAULT_OUTPUT_TOKEN_BOUND,
  });
  const fold =
    input.uncountedTokens > 0
      ? (deps.pricing.uncountedTokensNanos({
          provider: input.provider,
          model: input.model,
          tokens: input.uncountedTokens,
        }) ?? 0n)
      : 0n;

  for (let attempt = 0; attempt < 3; attempt++) {
    const reply = await evaluate(deps, runtime, input, estimate, fold);
    if (reply[0] !== "REBUILD") return toResult(runtime, input.agentRunId ?? null, reply);
    await ensureBudgetBuilt(deps, runtime, reply.slice(1).map(String));
  }
  throw budgetUnavailable(new Error("budget counters kept disappearing during the check"));
}

async function evaluate(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  input: z.output<typeof checkBudgetInput>,
  estimate: bigint | null,
  fold: bigint,
): Promise<CheckReply> {
  const nowMs = Date.now();
  const windows = currentWindows(new Date(nowMs));
  const keys = budgetKeys(runtime.projectId);
  const runId = input.agentRunId && !isAutoRun(input.agentRunId) ? input.agentRunId : "";
  const rules = runtime.tagRules.filter((r) => selectorMatches(r.selector, input.tags));
  const hard = runtime.mode === "hard_deny";
  // The run spend cap binds hard_deny projects only (spec §1).
  const runCap = runId && hard && runtime.runSpendCapNanos !== null ? runtime.runSpendCapNanos : -1n;
  const stopped = input.agentRunId ? runtime.stoppedRuns.has(input.agentRunId) : false;

  const scriptKeys = [
    keys.built,
    keys.holds,
    keys.holdRecords,
    keys.heldSums,
    keys.usage(windows.daily.key),
    keys.usage(windows.weekly.key),
    keys.usage(windows.monthly.key),
    keys.run(runId),
  ];
  for (const r of rules) scriptKeys.push(keys.tag(r.ref, windows[r.period].key));
  const args: (string | number)[] = [
    nowMs,
    hard ? "h" : "a",
    clamp(estimate ?? 0n),
    estimate === null ? "0" : "1",
    newId("res", nowMs),
    nowMs + deps.config.RESERVATION_TTL_SECONDS * 1000,
    limitArg(runtime.limits.daily),
    limitArg(runtime.limits.weekly),
    limitArg(runtime.limits.monthly),
    runId,
    runCap.toString(),
    stopped ? "1" : "0",
    clamp(fold),
    `unc_${nowMs.toString(36)}${Math.random().toString(36).slice(2, 10)}`,
    nowMs + BUDGET_TIMINGS.uncountedHoldMs,
    refreshDue(runtime.projectId, nowMs) ? BUDGET_TIMINGS.markerTtlMs : 0,
    BUDGET_TIMINGS.holdsKeyTtlMs,
    rules.length,
  ];
  for (const r of rules) args.push(r.ref, PERIOD_CODE[r.period], r.limitNanos.toString());
  return (await withRedis(deps.redis, () =>
    runScript(deps.redis, CHECK_SCRIPT, scriptKeys, args),
  )) as CheckReply;
}

/**
 * The check script's reply: `["REBUILD", marker…]`, or [verdict, code, mode, limit, used, remaining,
 * reservation id] with amounts as integer replies (decimal text beyond ±9e15).
 */
type CheckReply = (string | number)[];

/** A reply amount in nano-dollars (integer reply, or exact decimal text for huge values). */
function replyNanos(v: string | number | undefined): bigint | number {
  return typeof v === "number" ? v : BigInt(v ?? "0");
}

function toResult(
  runtime: ProjectBudgetRuntime,
  agentRunId: string | null,
  reply: CheckReply,
): CheckBudgetResult {
  const [verdict, code, mode, limit, used, remaining, resId] = reply;
  const stopped = code === "run_stopped";
  return {
    allowed: verdict === "A",
    mode: mode === "h" ? "hard_deny" : mode === "a" ? "alert_only" : runtime.mode,
    remainingBudget: stopped ? 0 : Math.max(0, nanosToUsd(replyNanos(remaining))),
    budgetLimit: nanosToUsd(replyNanos(limit)),
    currentUsage: nanosToUsd(replyNanos(used)),
    reservationId: verdict === "A" && resId ? String(resId) : null,
    deniedByPeriod: verdict === "A" ? null : (code as DeniedBy),
    runControl:
      stopped && agentRunId ? { reason: runtime.stoppedRuns.get(agentRunId) ?? "manual_kill" } : null,
  };
}

// Per process: when each project's key lifetimes were last refreshed by a check.
const refreshedAt = new Map<string, number>();
const REFRESH_EVERY_MS = 60_000;

function refreshDue(projectId: string, nowMs: number): boolean {
  const last = refreshedAt.get(projectId);
  if (last !== undefined && nowMs - last < REFRESH_EVERY_MS) return false;
  if (refreshedAt.size >= 100_000) refreshedAt.clear();
  refreshedAt.set(projectId, nowMs);
  return true;
}

function limitArg(limit: bigint | null): string {
  return limit === null ? "-1" : limit.toString();
}

// Lua numbers are doubles: keep every amount within exact integer range.
function clamp(n: bigint): string {
  return (n > MAX_SCRIPT_NANOS ? MAX_SCRIPT_NANOS : n < 0n ? 0n : n).toString();
}
