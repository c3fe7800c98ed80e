import { newId } from "../ids";
import { BUDGET_TIMINGS, type BudgetDeps } from "./budget-deps";
import { budgetUnavailable, corkUntilWritten, writeCorkedNow } from "./budget-redis";
import {
  budgetRuntimeCache,
  type ProjectBudgetRuntime,
  selectorMatches,
  type TagRuleRuntime,
} from "./budget-runtime";
import { CHECK_MANY_SCRIPT, CHECK_SCRIPT, respBulk, respBulkAscii, sendEncodedScript } from "./lua";
import { nanosToUsd } from "./money";
import { ensureBudgetBuilt } from "./rebuild-budget-counters";
import { isAutoRun } from "./record-ingested-spend";
import { type BudgetKeys, budgetKeys } from "./redis-keys";
import { currentWindowKeys, PERIOD_CODE, PERIODS, type Period } from "./windows";

/**
 * The budget check's one entry point type. Its input is already validated by the edge that
 * received it (the wire's check schema and hot-path validator, packages/wire/src/schemas): core
 * does not parse it again, it only applies the defaults of the optional fields.
 */
export interface CheckBudgetInput {
  projectId: string;
  provider: string;
  model: string;
  /** A non-negative safe integer. */
  estimatedInputTokens: number;
  fallbackProviders?: string[];
  fallbackModels?: string[];
  modality?: string;
  /** A non-empty run id, or none. */
  agentRunId?: string | null;
  /** A valid tag map (core/src/validation/text-rules.ts), or none. */
  tags?: Record<string, string> | null;
  uncountedCalls?: number;
  uncountedTokens?: number;
}

/** The input as the check reads it: optional fields take their defaults where they are read (no copy per check). */
type ParsedInput = CheckBudgetInput;

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
export function checkBudget(deps: BudgetDeps, input: CheckBudgetInput): Promise<CheckBudgetResult> {
  // Written without async frames for the common case (warm runtime, counters in Redis): the check
  // is the hot path, and every frame is a promise and a microtask. Failures still reject.
  try {
    const runtime = budgetRuntimeCache(deps).cached(input.projectId);
    if (runtime === undefined) return checkLoadingRuntime(deps, input);
    return evaluate(deps, runtime, input, reservationOf(deps, input), foldOf(deps, input), 1);
  } catch (err) {
    return Promise.reject(err);
  }
}

async function checkLoadingRuntime(deps: BudgetDeps, input: ParsedInput): Promise<CheckBudgetResult> {
  const runtime = await budgetRuntimeCache(deps).get(input.projectId);
  return evaluate(deps, runtime, input, reservationOf(deps, input), foldOf(deps, input), 1);
}

/** Attempts of a check are bounded: Redis lost the counters again after this many rebuilds. */
const CHECK_ATTEMPTS = 3;

/** After a REBUILD reply: rebuild the missing counters, then ask again (at most CHECK_ATTEMPTS in all). */
async function rebuildAndRetry(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  input: ParsedInput,
  estimate: bigint | null,
  fold: bigint,
  attempt: number,
  missing: string[],
): Promise<CheckBudgetResult> {
  await ensureBudgetBuilt(deps, runtime, missing.slice(1).map(String));
  if (attempt >= CHECK_ATTEMPTS) {
    throw budgetUnavailable(new Error("budget counters kept disappearing during the check"));
  }
  return evaluate(deps, runtime, input, estimate, fold, attempt + 1);
}

function reservationOf(deps: BudgetDeps, input: ParsedInput): bigint | null {
  return deps.pricing.reservationNanos({
    provider: input.provider,
    model: input.model,
    modality: input.modality ?? "text",
    estimatedInputTokens: input.estimatedInputTokens,
    outputTokenBound: deps.config.DEFAULT_OUTPUT_TOKEN_BOUND,
  });
}

function foldOf(deps: BudgetDeps, input: ParsedInput): bigint {
  const tokens = input.uncountedTokens ?? 0;
  if (tokens <= 0) return 0n;
  return (
    deps.pricing.uncountedTokensNanos({
      provider: input.provider,
      model: input.model,
      tokens,
    }) ?? 0n
  );
}

/**
 * What every check of one project version sends alike, built once per loaded runtime (a reload
 * after an invalidation is a new object) and, for the window keys, once per UTC day.
 */
interface PreparedRuntime {
  keys: BudgetKeys;
  hard: boolean;
  /** Period codes of the windows that have a limit (daily, weekly, monthly order), e.g. "m". */
  codes: string;
  periods: Period[];
  limits: string[];
  /** The run spend cap as script text, null when it cannot bind: hard_deny projects only (spec §1). */
  runCap: string | null;
  /** Each limited window's limit by its period code, as the script reads it (a double). */
  limitByCode: Record<string, number>;
  day: number;
  windowKeys: Readonly<Record<Period, string>>;
  /** The check script's KEYS for `day` up to the usage counters of the limited windows. */
  head: string[];
  /** `head` as RESP bulk strings. */
  headResp: string;
  /** `codes` and `limits` (the arguments after the reservation expiry) as RESP bulk strings. */
  limitsResp: string;
  /** Checks waiting for the next CHECK_MANY of this project (sent from a setImmediate). */
  queue: CheckCall[];
}

const prepared = new WeakMap<ProjectBudgetRuntime, PreparedRuntime>();
const DAY_MS = 86_400_000;
const HOLDS_TTL = String(BUDGET_TIMINGS.holdsKeyTtlMs);
const MARKER_TTL = String(BUDGET_TIMINGS.markerTtlMs);
const NO_RULES: TagRuleRuntime[] = [];
// The script's flags argument for every combination of: hard, reserve, stopped, refresh, fold,
// run id, binding run cap, tag rules (bit 7 down to bit 0).
const FLAGS: string[] = Array.from(
  { length: 256 },
  (_, bits) =>
    (bits & 128 ? "h" : "a") + [64, 32, 16, 8, 4, 2, 1].map((b) => (bits & b ? "1" : "0")).join(""),
);

function prepare(runtime: ProjectBudgetRuntime, nowMs: number): PreparedRuntime {
  const day = Math.floor(nowMs / DAY_MS);
  let p = prepared.get(runtime);
  if (!p) {
    const hard = runtime.mode === "hard_deny";
    // A negative limit or cap never binds (the script has always skipped them).
    const periods = PERIODS.filter((period) => {
      const limit = runtime.limits[period];
      return limit !== null && limit >= 0n;
    });
    const cap = runtime.runSpendCapNanos;
    p = {
      keys: budgetKeys(runtime.projectId),
      hard,
      codes: periods.map((period) => PERIOD_CODE[period]).join(""),
      periods,
      limits: periods.map((period) => runtime.limits[period]!.toString()),
      runCap: hard && cap !== null && cap >= 0n ? cap.toString() : null,
      limitByCode: Object.fromEntries(
        periods.map((period) => [PERIOD_CODE[period], Number(runtime.limits[period]!)]),
      ),
      day: Number.NaN,
      windowKeys: currentWindowKeys(nowMs),
      head: [],
      headResp: "",
      limitsResp: "",
      queue: [],
    };
    p.limitsResp = [p.codes, ...p.limits].map(respBulkAscii).join("");
    prepared.set(runtime, p);
  }
  if (p.day !== day) {
    const w = currentWindowKeys(nowMs);
    const k = p.keys;
    p.day = day;
    p.windowKeys = w;
    p.head = [k.built, k.holds, k.holdRecords, k.heldSums, ...p.periods.map((period) => k.usage(w[period]))];
    p.headResp = p.head.map(respBulk).join("");
  }
  return p;
}

/** One check's script values (and what its answer needs), computed when it is evaluated. */
interface CheckCall {
  runtime: ProjectBudgetRuntime;
  input: ParsedInput;
  estimate: bigint | null;
  fold: bigint;
  attempt: number;
  nowMs: number;
  rules: TagRuleRuntime[];
  runId: string;
  capped: boolean;
  refresh: boolean;
  flags: string;
  est: string;
  resId: string | null;
  expires: string;
  /** Settle the check's promise (set when it is created). */
  resolve?: (result: CheckBudgetResult | Promise<CheckBudgetResult>) => void;
  reject?: (err: unknown) => void;
}

function evaluate(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  input: ParsedInput,
  estimate: bigint | null,
  fold: bigint,
  attempt: number,
): Promise<CheckBudgetResult> {
  const nowMs = Date.now();
  const p = prepare(runtime, nowMs);
  const runId = input.agentRunId && !isAutoRun(input.agentRunId) ? input.agentRunId : "";
  const rules =
    runtime.tagRules.length === 0
      ? NO_RULES
      : runtime.tagRules.filter((r) => selectorMatches(r.selector, input.tags));
  const stopped = input.agentRunId ? runtime.stoppedRuns.has(input.agentRunId) : false;
  const capped = runId !== "" && p.runCap !== null;
  const reserve = estimate !== null;
  const refresh = refreshDue(runtime.projectId, nowMs);
  const folding = fold > 0n;
  const flags =
    FLAGS[
      (p.hard ? 128 : 0) |
        (reserve ? 64 : 0) |
        (stopped ? 32 : 0) |
        (refresh ? 16 : 0) |
        (folding ? 8 : 0) |
        (runId !== "" ? 4 : 0) |
        (capped ? 2 : 0) |
        (rules.length > 0 ? 1 : 0)
    ]!;
  const call: CheckCall = {
    runtime,
    input,
    estimate,
    fold,
    attempt,
    nowMs,
    rules,
    runId,
    capped,
    refresh,
    flags,
    est: clamp(estimate ?? 0n),
    resId: reserve ? newId("res", nowMs) : null,
    expires: String(nowMs + deps.config.RESERVATION_TTL_SECONDS * 1000),
  };
  // The common check (no binding run cap, no tag rule, nothing else to do) waits for the end of
  // this turn of the event loop: the project's checks that arrived in the same turn go to Redis in
  // one CHECK_MANY. A lone check goes as it came, so an idle project's check is not slowed.
  const queued = !capped && rules.length === 0 && !refresh && !folding;
  return new Promise<CheckBudgetResult>((resolve, reject) => {
    call.resolve = resolve;
    call.reject = reject;
    if (!queued) sendCheck(deps, p, call);
    else if (p.queue.push(call) === 1 && waiting.push({ deps, p }) === 1) setImmediate(flushAll);
  });
}

/** Checks per CHECK_MANY: bounds one script's run (Redis runs scripts one at a time). */
const CHECKS_PER_SCRIPT = 64;

/** Projects with checks queued this turn, flushed together from one setImmediate. */
let waiting: { deps: BudgetDeps; p: PreparedRuntime }[] = [];

/**
 * Sends every queued project's checks, then writes them to Redis at once: they were issued from
 * the check phase, where the budget client's corked socket would otherwise wait for the next turn
 * of the event loop (writeCorkedNow).
 */
function flushAll(): void {
  const batch = waiting;
  waiting = [];
  let redis: BudgetDeps["redis"] | null = null;
  for (const { deps, p } of batch) {
    if (deps.redis !== redis) {
      if (redis) writeCorkedNow(redis);
      redis = deps.redis;
      corkUntilWritten(redis);
    }
    flushChecks(deps, p);
  }
  if (redis) writeCorkedNow(redis);
}

function flushChecks(deps: BudgetDeps, p: PreparedRuntime): void {
  const queue = p.queue;
  p.queue = [];
  for (let from = 0; from < queue.length; from += CHECKS_PER_SCRIPT) {
    const part = queue.length <= CHECKS_PER_SCRIPT ? queue : queue.slice(from, from + CHECKS_PER_SCRIPT);
    if (part.length === 1) {
      sendCheck(deps, p, part[0]!);
    } else {
      sendChecks(deps, p, part);
    }
  }
}

/** One check, one CHECK script; its answer settles the check's promise. */
function sendCheck(deps: BudgetDeps, p: PreparedRuntime, c: CheckCall): void {
  const { runtime, runId, capped, rules, nowMs, est, resId, expires, flags } = c;
  // The script's KEYS and ARGV, and the same as RESP bulk strings: the project's key names and
  // limits are encoded once (PreparedRuntime), each check encodes only its own values.
  const scriptKeys = p.head.slice();
  let encoded = p.headResp;
  if (capped) {
    const runKey = p.keys.run(runId);
    scriptKeys.push(runKey);
    encoded += respBulk(runKey);
  }
  for (const r of rules) {
    const tagKey = p.keys.tag(r.ref, p.windowKeys[r.period]);
    scriptKeys.push(tagKey);
    encoded += respBulk(tagKey);
  }
  const now = String(nowMs);
  const args: string[] = [now, flags, est, resId ?? "", expires, p.codes];
  for (const limit of p.limits) args.push(limit);
  encoded +=
    respBulkAscii(now) +
    respBulkAscii(flags) +
    respBulkAscii(est) +
    respBulkAscii(resId ?? "") +
    respBulkAscii(expires) +
    p.limitsResp;
  // Only what this check has travels: most checks name no run and match no tag rule.
  const optionalFrom = args.length;
  if (runId !== "") args.push(runId);
  if (capped) args.push(p.runCap!);
  if (rules.length > 0) {
    args.push(String(rules.length));
    for (const r of rules) args.push(r.ref, PERIOD_CODE[r.period], r.limitNanos.toString());
  }
  if (c.refresh) args.push(MARKER_TTL, HOLDS_TTL);
  if (c.fold > 0n) {
    args.push(
      clamp(c.fold),
      `unc_${nowMs.toString(36)}${Math.random().toString(36).slice(2, 10)}`,
      String(nowMs + BUDGET_TIMINGS.uncountedHoldMs),
    );
  }
  for (let i = optionalFrom; i < args.length; i++) encoded += respBulk(args[i]!);
  sendEncodedScript(
    deps.redis,
    CHECK_SCRIPT,
    scriptKeys,
    args,
    encoded,
    (reply) => {
      try {
        c.resolve!(
          typeof reply === "string"
            ? toResult(runtime, p, rules, c.input.agentRunId ?? null, reply, Number(est), resId)
            : rebuildAndRetry(deps, runtime, c.input, c.estimate, c.fold, c.attempt, reply as string[]),
        );
      } catch (err) {
        c.reject!(err);
      }
    },
    c.reject!,
  );
}

/** Several common checks of one project, one CHECK_MANY; each settles with its own answer. */
function sendChecks(deps: BudgetDeps, p: PreparedRuntime, part: CheckCall[]): void {
  let nowMs = 0;
  for (const c of part) if (c.nowMs > nowMs) nowMs = c.nowMs;
  const now = String(nowMs);
  const count = String(part.length);
  const args: string[] = [now, p.codes];
  for (const limit of p.limits) args.push(limit);
  args.push(count);
  let encoded = p.headResp + respBulkAscii(now) + p.limitsResp + respBulkAscii(count);
  for (const c of part) {
    const resId = c.resId ?? "";
    args.push(c.flags, c.est, resId, c.expires, c.runId);
    encoded +=
      respBulkAscii(c.flags) +
      respBulkAscii(c.est) +
      respBulkAscii(resId) +
      respBulkAscii(c.expires) +
      respBulk(c.runId);
  }
  const fail = (err: unknown) => {
    for (const c of part) c.reject!(err);
  };
  const onReply = (reply: unknown) => {
    if (typeof reply === "string") {
      let start = 0;
      for (const c of part) {
        let end = reply.indexOf("\n", start);
        if (end < 0) end = reply.length;
        const line = reply.slice(start, end);
        start = end + 1;
        c.resolve!(
          toResult(c.runtime, p, NO_RULES, c.input.agentRunId ?? null, line, Number(c.est), c.resId),
        );
      }
    } else {
      for (const c of part) {
        c.resolve!(
          rebuildAndRetry(deps, c.runtime, c.input, c.estimate, c.fold, c.attempt, reply as string[]),
        );
      }
    }
  };
  sendEncodedScript(
    deps.redis,
    CHECK_MANY_SCRIPT,
    p.head,
    args,
    encoded,
    (reply) => {
      // A check settled already ignores a second settlement: a throw here fails the rest.
      try {
        onReply(reply);
      } catch (err) {
        fail(err);
      }
    },
    fail,
  );
}

const PERIOD_OF_CODE: Record<string, DeniedBy> = Object.fromEntries(
  PERIODS.map((period) => [PERIOD_CODE[period], period]),
);

/**
 * The verdict line `verdict|reason|mode|scope|usage|held` as a result. The script names the binding
 * scope (a window's period code, `r` the run, `t<i>` the i-th matched tag rule, empty for none) and
 * hands back its settled usage and held amount as stored; the amounts are computed here, in doubles
 * exactly as the script compared them: used = usage + held, and on allow the estimate on top.
 */
function toResult(
  runtime: ProjectBudgetRuntime,
  p: PreparedRuntime,
  rules: TagRuleRuntime[],
  agentRunId: string | null,
  reply: string,
  est: number,
  reservationId: string | null,
): CheckBudgetResult {
  // "verdict|reason|mode|scope|usage|held", read field by field (no array per answer).
  const r1 = reply.indexOf("|");
  const r2 = reply.indexOf("|", r1 + 1);
  const r3 = reply.indexOf("|", r2 + 1);
  const r4 = reply.indexOf("|", r3 + 1);
  const r5 = reply.indexOf("|", r4 + 1);
  if (r1 < 0 || r2 < 0 || r3 < 0 || r4 < 0 || r5 < 0) throw new Error(`malformed budget verdict: ${reply}`);
  const allowed = reply.charCodeAt(0) === 65; // "A"
  const reason = reply.slice(r1 + 1, r2);
  const mode = reply.slice(r2 + 1, r3);
  const scope = reply.slice(r3 + 1, r4);
  const usage = reply.slice(r4 + 1, r5);
  const held = reply.slice(r5 + 1);
  const stopped = reason === "run_stopped";
  let limit = 0;
  let used = 0;
  let remaining = 0;
  if (scope !== "") {
    limit =
      scope === "r"
        ? Number(p.runCap)
        : scope.charCodeAt(0) === 116 // "t": a tag rule by its position among the matched ones
          ? Number(rules[Number(scope.slice(1)) - 1]!.limitNanos)
          : p.limitByCode[scope]!;
    // Number("") is 0: no counter, no holds.
    const settled = Number(usage) + Number(held);
    if (allowed) {
      used = settled + est;
      remaining = limit - settled - est;
    } else {
      used = settled;
      remaining = stopped ? 0 : Math.max(0, limit - settled);
    }
  }
  return {
    allowed,
    mode: mode === "h" ? "hard_deny" : mode === "a" ? "alert_only" : runtime.mode,
    remainingBudget: stopped ? 0 : Math.max(0, nanosToUsd(remaining)),
    budgetLimit: nanosToUsd(limit),
    currentUsage: nanosToUsd(used),
    reservationId: allowed ? reservationId : null,
    deniedByPeriod: allowed ? null : reason === "p" ? PERIOD_OF_CODE[scope]! : (reason as DeniedBy),
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

// Lua numbers are doubles: keep every amount within exact integer range.
function clamp(n: bigint): string {
  return (n > MAX_SCRIPT_NANOS ? MAX_SCRIPT_NANOS : n < 0n ? 0n : n).toString();
}
