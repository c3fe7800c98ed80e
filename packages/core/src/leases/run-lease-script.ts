import { BUDGET_TIMINGS } from "../budgets/budget-deps";
import { budgetUnavailable, withRedis } from "../budgets/budget-redis";
import { budgetRuntimeCache, type ProjectBudgetRuntime } from "../budgets/budget-runtime";
import { type LuaScript, runScript } from "../budgets/lua";
import { ensureBudgetBuilt } from "../budgets/rebuild-budget-counters";
import { budgetKeys } from "../budgets/redis-keys";
import { currentWindowKeys, PERIOD_CODE, PERIODS } from "../budgets/windows";
import type { LeaseDeps } from "./lease-deps";
import { LEASE_SIZING, LEASE_TIMINGS, leaseKeys } from "./lease-keys";

/** Redis deadline of a lease script: the SDK gives a grant 1 s, a renewal 5 s. */
const LEASE_REDIS_TIMEOUT_MS = 800;

export function runLease(deps: LeaseDeps, s: LuaScript, keys: string[], args: string[]): Promise<unknown> {
  return withRedis(deps.redis, () => runScript(deps.redis, s, keys, args), LEASE_REDIS_TIMEOUT_MS);
}

export function loadRuntime(deps: LeaseDeps, projectId: string): Promise<ProjectBudgetRuntime> {
  return budgetRuntimeCache(deps).get(projectId);
}

/** A jittered renewal interval (±15 % around 30 s), always below the lease length. */
export function jitteredRefresh(random = Math.random): string {
  const j = 1 + LEASE_TIMINGS.refreshJitter * (2 * random() - 1);
  return (LEASE_TIMINGS.refreshIntervalS * j).toFixed(3);
}

/**
 * The sizing block shared by grant and renew (see lua.ts): KEYS 1–5 and 8.. (the caller puts the
 * lease record and run set at 6 and 7), ARGV 1–17 and 24.. (the caller fills 18–23).
 */
export function sizingFrame(
  runtime: ProjectBudgetRuntime,
  o: {
    nowMs: number;
    verdict: string;
    runControl: boolean;
    rateNanos: string;
    chain: string;
    perCallTokens: number;
    leaseRecordKey: string;
    runSetKey: string;
  },
): { keys: string[]; args: string[]; limits: string[] } {
  const k = budgetKeys(runtime.projectId);
  const lk = leaseKeys(runtime.projectId);
  const w = currentWindowKeys(o.nowMs);
  const periods = PERIODS.filter((p) => runtime.limits[p] !== null && runtime.limits[p]! >= 0n);
  const hard = runtime.mode === "hard_deny";
  const cap = runtime.runSpendCapNanos;
  const keys = [
    k.built,
    k.holds,
    k.holdRecords,
    k.heldSums,
    lk.index,
    o.leaseRecordKey,
    o.runSetKey,
    ...periods.map((p) => k.usage(w[p])),
  ];
  const args = [
    String(o.nowMs),
    hard ? "h" : "a",
    periods.map((p) => PERIOD_CODE[p]).join(""),
    hard && cap !== null && cap >= 0n ? cap.toString() : "-1",
    String(o.perCallTokens),
    String(LEASE_SIZING.holderCap),
    String(LEASE_SIZING.maxGrantTokens),
    String(LEASE_SIZING.finalGrantCalls),
    String(o.nowMs + LEASE_TIMINGS.expiryMs),
    jitteredRefresh(),
    String(LEASE_TIMINGS.leaseLengthS),
    String(BUDGET_TIMINGS.holdsKeyTtlMs),
    String(o.nowMs + BUDGET_TIMINGS.uncountedHoldMs),
    o.verdict,
    o.runControl ? "1" : "0",
    o.rateNanos,
    o.chain,
  ];
  return { keys, args, limits: periods.map((p) => runtime.limits[p]!.toString()) };
}

/** Runs a sizing script, rebuilding the project's counters first when Redis has lost them. */
export async function runSized(
  deps: LeaseDeps,
  runtime: ProjectBudgetRuntime,
  s: LuaScript,
  build: () => { keys: string[]; args: string[] },
): Promise<(string | number)[]> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { keys, args } = build();
    const reply = (await runLease(deps, s, keys, args)) as (string | number)[];
    if (reply[0] !== "REBUILD") return reply;
    await ensureBudgetBuilt(deps, runtime, ["p"]);
  }
  throw budgetUnavailable(new Error("budget counters kept disappearing during a lease request"));
}

/** The verdict the catalogue and the runtime settle before Redis: '' | 'I:<reason>' | 'S:<reason>'. */
export function stoppedVerdict(runtime: ProjectBudgetRuntime, agentRunId: string): string {
  const reason = runtime.stoppedRuns.get(agentRunId);
  return reason === undefined ? "" : `S:${reason}`;
}
