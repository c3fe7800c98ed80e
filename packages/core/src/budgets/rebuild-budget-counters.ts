import { randomBytes } from "node:crypto";
import { Prisma } from "@breakwater/db";
import { isCluster } from "@breakwater/queue";
import { BUDGET_TIMINGS, type BudgetDeps } from "./budget-deps";
import { budgetUnavailable, withRedis } from "./budget-redis";
import type { ProjectBudgetRuntime, TagRuleRuntime } from "./budget-runtime";
import { REBUILD_APPLY_SCRIPT, runScript, UNLOCK_SCRIPT } from "./lua";
import { applyIngestedSpend, type IngestedSpendItem } from "./record-ingested-spend";
import { budgetKeys } from "./redis-keys";
import { currentWindows, PERIODS, windowExpireAt, windowOf } from "./windows";

// Spend as the counters count it: priced, not denied, in nano-dollars rounded up per event (as
// pricing rounds a call's cost, so rebuilt and live counters agree).
const SPEND = Prisma.sql`CEIL(cost_usd * 1000000000)`;
const COUNTED = Prisma.sql`cost_usd IS NOT NULL AND status <> 'budget_denied'`;
const DAY_MS = 86_400_000;

interface Counter {
  key: string;
  value: string;
  expire: ["at" | "in", number];
}

// One rebuild per project per process at a time; concurrent checks await the same promise.
const inflight = new Map<string, Promise<void>>();

/**
 * Makes sure the project's counters (and the named tag-rule versions) exist in Redis, rebuilding
 * them from the durable metadata events when Redis has lost them. `missing` holds built-marker
 * fields as reported by the check script: `p` (project) and/or `t:<ruleRef>`. Guarded by a Redis
 * lock across processes; throws BUDGET_UNAVAILABLE if another process's rebuild does not finish
 * within the wait budget.
 */
export function ensureBudgetBuilt(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  missing: string[],
): Promise<void> {
  const flightKey = `${runtime.projectId}\n${missing.slice().sort().join(",")}`;
  let p = inflight.get(flightKey);
  if (!p) {
    p = rebuildLocked(deps, runtime, missing).finally(() => inflight.delete(flightKey));
    inflight.set(flightKey, p);
  }
  return p;
}

async function rebuildLocked(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  missing: string[],
): Promise<void> {
  const keys = budgetKeys(runtime.projectId);
  const token = randomBytes(8).toString("hex");
  const got = await withRedis(deps.redis, () =>
    deps.redis.set(keys.lock, token, "PX", BUDGET_TIMINGS.rebuildLockMs, "NX"),
  );
  if (got !== "OK") {
    await waitForOtherRebuild(deps, keys.built, missing);
    return;
  }
  try {
    const full = missing.includes("p");
    const refs = new Set(missing.filter((m) => m.startsWith("t:")).map((m) => m.slice(2)));
    const rules = full ? runtime.tagRules : runtime.tagRules.filter((r) => refs.has(r.ref));
    await rebuild(deps, runtime, full, rules);
  } finally {
    await withRedis(deps.redis, () => runScript(deps.redis, UNLOCK_SCRIPT, [keys.lock], [token])).catch(
      () => undefined,
    );
  }
}

async function waitForOtherRebuild(deps: BudgetDeps, builtKey: string, missing: string[]): Promise<void> {
  const deadline = Date.now() + BUDGET_TIMINGS.rebuildWaitMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    const present = await withRedis(deps.redis, () => deps.redis.hmget(builtKey, ...missing));
    if (present.every((v) => v !== null)) return;
  }
  throw budgetUnavailable(new Error("budget counters are being rebuilt by another process"));
}

async function rebuild(
  deps: BudgetDeps,
  runtime: ProjectBudgetRuntime,
  full: boolean,
  rules: TagRuleRuntime[],
): Promise<void> {
  const projectId = runtime.projectId;
  const keys = budgetKeys(projectId);
  const startedAt = Date.now();
  const now = new Date(startedAt);
  const windows = currentWindows(now);
  const recentSince = new Date(startedAt - BUDGET_TIMINGS.rebuildStragglerMs);

  // One snapshot for every sum and for the list of recent events, so "already in the sums" and
  // "in the recent list" agree.
  const snapshot = await deps.db.$transaction(
    async (tx) => {
      const from = new Date(Math.min(windows.weekly.start.getTime(), windows.monthly.start.getTime()));
      const to = new Date(Math.max(windows.weekly.end.getTime(), windows.monthly.end.getTime()));
      const ruleWindows = rules.map((r) => ({ rule: r, window: windowOf(r.period, now) }));
      const columns: Prisma.Sql[] = [];
      if (full) {
        for (const p of PERIODS) {
          const w = windows[p];
          columns.push(
            Prisma.sql`COALESCE(SUM(${SPEND}) FILTER (WHERE "timestamp" >= ${w.start} AND "timestamp" < ${w.end}), 0)::text`,
          );
        }
      }
      for (const { rule, window } of ruleWindows) {
        columns.push(
          Prisma.sql`COALESCE(SUM(${SPEND}) FILTER (WHERE "timestamp" >= ${window.start} AND "timestamp" < ${window.end} AND tags @> ${JSON.stringify(rule.selector)}::jsonb), 0)::text`,
        );
      }
      const lo = new Date(Math.min(from.getTime(), ...ruleWindows.map((r) => r.window.start.getTime())));
      const hi = new Date(Math.max(to.getTime(), ...ruleWindows.map((r) => r.window.end.getTime())));
      const sums: string[] = [];
      if (columns.length > 0) {
        const rows = await tx.$queryRaw<Record<string, string>[]>(
          Prisma.sql`SELECT ${Prisma.join(columns.map((c, i) => Prisma.sql`${c} AS ${Prisma.raw(`c${i}`)}`))}
            FROM metadata_events
            WHERE project_id = ${projectId} AND "timestamp" >= ${lo} AND "timestamp" < ${hi} AND ${COUNTED}`,
        );
        const row = rows[0] ?? {};
        for (let i = 0; i < columns.length; i++) sums.push(row[`c${i}`] ?? "0");
      }
      let runs: { run: string; nanos: string }[] = [];
      let recent: { call_id: string; attempt_index: number }[] = [];
      if (full) {
        const since = new Date(startedAt - BUDGET_TIMINGS.runTtlMs);
        // A run's spend is all of its events: none is older than the run's first_seen_at (the
        // earliest event timestamp the ingest upserted), which bounds the sum to the partitions the
        // runs span (a run with no agent_runs row leaves it unbounded; a Date keeps milliseconds only,
        // hence the one ms of slack).
        const [span] = await tx.$queryRaw<{ runs: number; first: Date | null; unknown: boolean | null }[]>`
          SELECT count(*)::int AS runs, min(a.first_seen_at) AS first, bool_or(a.agent_run_id IS NULL) AS unknown
          FROM (SELECT DISTINCT agent_run_id FROM metadata_events
                WHERE project_id = ${projectId} AND "timestamp" >= ${since}
                  AND agent_run_id NOT LIKE '\\_auto-%') r
          LEFT JOIN agent_runs a ON a.project_id = ${projectId} AND a.agent_run_id = r.agent_run_id`;
        const fromFirst =
          span?.first && !span.unknown
            ? Prisma.sql`AND "timestamp" >= ${new Date(span.first.getTime() - 1)}`
            : Prisma.empty;
        runs = span?.runs
          ? await tx.$queryRaw<{ run: string; nanos: string }[]>`
          SELECT agent_run_id AS run, SUM(${SPEND})::text AS nanos
          FROM metadata_events
          WHERE project_id = ${projectId} AND ${COUNTED} AND agent_run_id NOT LIKE '\\_auto-%' ${fromFirst}
            AND agent_run_id IN (
              SELECT DISTINCT agent_run_id FROM metadata_events
              WHERE project_id = ${projectId} AND "timestamp" >= ${since})
          GROUP BY agent_run_id
          HAVING SUM(${SPEND}) > 0`
          : [];
        recent = await recentEvents(tx, projectId, startedAt, recentSince);
      }
      return { sums, runs, recent, ruleWindows };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  );

  const counters: Counter[] = [];
  let i = 0;
  if (full) {
    for (const p of PERIODS) {
      const w = windows[p];
      counters.push({
        key: keys.usage(w.key),
        value: snapshot.sums[i++]!,
        expire: ["at", windowExpireAt(w)],
      });
    }
    for (const r of snapshot.runs) {
      counters.push({ key: keys.run(r.run), value: r.nanos, expire: ["in", BUDGET_TIMINGS.runTtlMs] });
    }
  }
  for (const { rule, window } of snapshot.ruleWindows) {
    counters.push({
      key: keys.tag(rule.ref, window.key),
      value: snapshot.sums[i++]!,
      expire: ["at", windowExpireAt(window)],
    });
  }
  const seen = snapshot.recent.map((e) => `${e.call_id}#${e.attempt_index}`);
  const fields = [...(full ? ["p"] : []), ...rules.map((r) => `t:${r.ref}`)];
  const args: (string | number)[] = [
    full ? "p" : "t",
    BUDGET_TIMINGS.markerTtlMs,
    startedAt + BUDGET_TIMINGS.seenEventTtlMs,
    startedAt,
    counters.length,
  ];
  for (const c of counters) args.push(c.value, c.expire[0], c.expire[1]);
  args.push(seen.length, ...seen, fields.length, ...fields);
  // On a cluster the marker names its node, so a promoted replica's sweep can tell it apart.
  if (isCluster(deps.redis)) args.push("c");
  // Marks the applied recent events as seen so an ingest that committed before the snapshot but
  // reaches Redis after this point does not add its event a second time.
  const applied = await withRedis(deps.redis, () =>
    runScript(
      deps.redis,
      REBUILD_APPLY_SCRIPT,
      [keys.built, keys.seenEvents, keys.provisional, keys.provisionalExp, ...counters.map((c) => c.key)],
      args,
    ),
  );
  deps.log.info(
    { projectId, full, rules: rules.length, runs: snapshot.runs.length, ms: Date.now() - startedAt, applied },
    "budget counters rebuilt from metadata events",
  );
  if (!full || applied !== 1) return;

  // Ingests whose event committed after the snapshot but reached Redis before the marker existed
  // were skipped by the ingest script; apply them now (the seen set drops any already applied).
  const later = await deps.db.$queryRaw<StragglerRow[]>`
    SELECT call_id::text AS call_id, attempt_index, "timestamp", CEIL(cost_usd * 1000000000)::text AS nanos,
           agent_run_id, tags, status
    FROM metadata_events
    WHERE project_id = ${projectId} AND "timestamp" >= ${new Date(startedAt - DAY_MS)}
      AND received_at >= ${recentSince}`;
  const known = new Set(seen);
  const items: IngestedSpendItem[] = later
    .filter((e) => !known.has(`${e.call_id}#${e.attempt_index}`))
    .map((e) => ({
      callId: e.call_id,
      attemptIndex: e.attempt_index,
      timestamp: e.timestamp,
      costNanos: e.nanos === null ? null : BigInt(e.nanos),
      agentRunId: e.agent_run_id,
      tags: (e.tags as Record<string, string> | null) ?? null,
      status: e.status,
    }));
  if (items.length > 0) await applyIngestedSpend(deps, runtime, items);
}

interface StragglerRow {
  call_id: string;
  attempt_index: number;
  timestamp: Date;
  nanos: string | null;
  agent_run_id: string;
  tags: unknown;
  status: string;
}

async function recentEvents(
  tx: Prisma.TransactionClient,
  projectId: string,
  startedAt: number,
  recentSince: Date,
): Promise<{ call_id: string; attempt_index: number }[]> {
  // The timestamp bound lets the (project_id, timestamp) index do the work; events arrive within
  // seconds of their timestamp, a day is a wide margin.
  return tx.$queryRaw`
    SELECT call_id::text AS call_id, attempt_index
    FROM metadata_events
    WHERE project_id = ${projectId} AND "timestamp" >= ${new Date(startedAt - DAY_MS)}
      AND received_at >= ${recentSince}`;
}
