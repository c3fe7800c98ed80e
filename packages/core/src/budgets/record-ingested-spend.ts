import { BUDGET_TIMINGS, type BudgetDeps } from "./budget-deps";
import {
  budgetRuntimeCache,
  type ProjectBudgetRuntime,
  ruleRefWithPeriod,
  selectorMatches,
} from "./budget-runtime";
import { INGEST_SCRIPT, runBudgetScript } from "./lua";
import { budgetKeys } from "./redis-keys";
import { currentWindows, PERIOD_CODE, PERIODS, type Period, windowExpireAt } from "./windows";

/** One durable metadata event, as the live counters need it. */
export interface IngestedSpendItem {
  callId: string;
  attemptIndex: number;
  timestamp: Date;
  /** Actual cost; null = unpriced (counts no dollars). */
  costNanos: bigint | null;
  agentRunId: string;
  tags?: Record<string, string> | null;
  status: string;
}

// Bounds the work of one script call (Redis runs scripts one at a time).
const EVENTS_PER_SCRIPT = 250;

/**
 * Moves the live counters for events that were just made durable (call AFTER the insert commits).
 * Each (call_id, attempt_index) counts once; the first event of a call replaces the provisional
 * amount its confirm added, so a call is never counted twice. Budget-denied events add nothing.
 * Window counters move only for events in the current window; run and tag-rule counters too.
 * When the project's counters are not in Redis this is a no-op: the next check rebuilds them from
 * the events. Throws BUDGET_UNAVAILABLE when Redis is down (the events are durable either way).
 *
 * Batches of one project that reach this in the same turn of the event loop (the batches one
 * group-committed insert made durable together) move the counters in one script call, up to
 * EVENTS_PER_SCRIPT events: each resolves when that call has. A script call costs Redis and the
 * socket far more than the events in it, so a group of small batches pays it once.
 */
export function recordIngestedSpend(
  deps: BudgetDeps,
  projectId: string,
  items: IngestedSpendItem[],
): Promise<void> {
  const counted = items.filter((i) => i.status !== "budget_denied");
  if (counted.length === 0) return Promise.resolve();
  let open = openGroups.get(deps);
  if (open === undefined) {
    open = new Map();
    openGroups.set(deps, open);
  }
  let group = open.get(projectId);
  if (group !== undefined && group.items.length + counted.length > EVENTS_PER_SCRIPT) {
    open.delete(projectId); // full: it leaves as it is, at its turn's end
    group = undefined;
  }
  if (group === undefined) group = openGroup(deps, open, projectId);
  for (const item of counted) group.items.push(item);
  return group.done;
}

interface SpendGroup {
  items: IngestedSpendItem[];
  done: Promise<void>;
}

// Per deps (one per runtime), each project's group still taking batches this turn.
const openGroups = new WeakMap<BudgetDeps, Map<string, SpendGroup>>();

function openGroup(deps: BudgetDeps, open: Map<string, SpendGroup>, projectId: string): SpendGroup {
  const group: SpendGroup = { items: [], done: Promise.resolve() };
  group.done = new Promise<void>((resolve) => {
    setImmediate(() => {
      if (open.get(projectId) === group) open.delete(projectId);
      resolve();
    });
  }).then(async () => {
    const runtime = await budgetRuntimeCache(deps).get(projectId);
    await applyIngestedSpend(deps, runtime, group.items);
  });
  open.set(projectId, group);
  return group;
}

/** The counter moves of recordIngestedSpend for a known runtime (also used by the rebuild). */
export async function applyIngestedSpend(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  items: IngestedSpendItem[],
): Promise<number> {
  const nowMs = Date.now();
  const now = new Date(nowMs);
  const windows = currentWindows(now);
  const keys = budgetKeys(runtime.projectId);
  const head: string[] = [
    nowMs,
    BUDGET_TIMINGS.seenEventTtlMs,
    BUDGET_TIMINGS.ingestedCallTtlMs,
    BUDGET_TIMINGS.runTtlMs,
    windows.daily.key,
    windows.weekly.key,
    windows.monthly.key,
    windowExpireAt(windows.daily),
    windowExpireAt(windows.weekly),
    windowExpireAt(windows.monthly),
  ].map(String);
  const scriptKeys = [
    keys.built,
    keys.seenEvents,
    keys.provisional,
    keys.provisionalExp,
    keys.ingestedCalls,
    keys.usage(windows.daily.key),
    keys.usage(windows.weekly.key),
    keys.usage(windows.monthly.key),
  ];
  let applied = 0;
  // An instant is in a period's current window when it lies between the window's bounds: the same
  // answer as comparing its window's key, without building a window per event and period.
  const bounds = {} as Record<Period, { start: number; end: number }>;
  for (const p of PERIODS) bounds[p] = { start: windows[p].start.getTime(), end: windows[p].end.getTime() };
  const current = (period: Period, at: number) => at >= bounds[period].start && at < bounds[period].end;
  const relevant = items.filter((i) => i.status !== "budget_denied");
  for (let start = 0; start < relevant.length; start += EVENTS_PER_SCRIPT) {
    const chunk = relevant.slice(start, start + EVENTS_PER_SCRIPT);
    const args: string[] = [...head, String(chunk.length)];
    for (const item of chunk) {
      const amount = item.costNanos !== null && item.costNanos > 0n ? item.costNanos.toString() : "0";
      // An event of an older window only moves that window's history, which no check reads.
      const at = item.timestamp.getTime();
      let mask = "";
      for (const p of PERIODS) if (current(p, at)) mask += PERIOD_CODE[p];
      const refs: string[] = [];
      for (const rule of runtime.tagRules) {
        if (!selectorMatches(rule.selector, item.tags)) continue;
        if (!current(rule.period, at)) continue;
        refs.push(ruleRefWithPeriod(rule));
      }
      args.push(
        `${item.callId}#${item.attemptIndex}`,
        item.callId,
        amount,
        mask,
        isAutoRun(item.agentRunId) ? "" : item.agentRunId,
        refs.join(","),
      );
    }
    const n = await runBudgetScript(deps.redis, INGEST_SCRIPT, scriptKeys, args, 2_000);
    if (Number(n) < 0) return applied;
    applied += Number(n);
  }
  return applied;
}

/** Server-assigned run ids of run-less traffic: never checked, so no live counter is kept for them. */
export function isAutoRun(agentRunId: string): boolean {
  return agentRunId.startsWith("_auto-");
}
