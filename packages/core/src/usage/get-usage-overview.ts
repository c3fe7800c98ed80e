import { Prisma } from "@breakwater/db";
import { z } from "zod";
import { windowOf } from "../budgets/windows";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { addHistogram, LATENCY_BUCKETS, latencyPercentile } from "./latency-histogram";
import { usageRolledUpTo } from "./roll-up-usage";

const DAY_MS = 86_400_000;
/** Longest range a usage page may ask for. */
export const USAGE_MAX_RANGE_DAYS = 400;
/** Longest range shown by the hour (beyond it the series has too many points to draw). */
export const USAGE_MAX_HOURLY_DAYS = 31;
/** How many runs and tag values the overview lists. */
export const USAGE_TOP_RUNS = 50;
export const USAGE_TOP_TAGS = 200;

/** True for a real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
function isCalendarDay(s: string): boolean {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
}

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-12-01")
  .refine(isCalendarDay, { message: "Not a valid date" });

const HOUR_MS = 3_600_000;
/** The longest rolling window (`lastHours`): as many hours as the hourly view's longest range. */
export const USAGE_MAX_LAST_HOURS = USAGE_MAX_HOURLY_DAYS * 24;

export const getUsageOverviewInput = z
  .object({
    /** One project of the caller's organization; every project when absent. */
    projectId: z.string().min(1).max(100).optional(),
    /** First UTC day of the range (YYYY-MM-DD); with `to`, unless `lastHours` is given. */
    from: isoDay.optional(),
    /** Last UTC day of the range, inclusive (YYYY-MM-DD). */
    to: isoDay.optional(),
    /**
     * A rolling window instead of calendar days: the last N hours up to now, as N hourly buckets
     * ending with the current (partial) hour. Shown by the hour; `from` and `to` must be absent.
     */
    lastHours: z
      .number()
      .int("Use a whole number of hours")
      .min(1, "Choose at least 1 hour")
      .max(USAGE_MAX_LAST_HOURS, `Choose at most ${USAGE_MAX_LAST_HOURS} hours`)
      .optional(),
    granularity: z.enum(["day", "hour"]).default("day"),
  })
  .superRefine((v, ctx) => {
    if (v.lastHours !== undefined) {
      for (const key of ["from", "to"] as const) {
        if (v[key] !== undefined)
          ctx.addIssue({ code: "custom", path: [key], message: "Give either lastHours or from and to" });
      }
      return;
    }
    for (const key of ["from", "to"] as const) {
      if (v[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: "Required" });
    }
    if (v.from === undefined || v.to === undefined) return;
    if (!isCalendarDay(v.from) || !isCalendarDay(v.to)) return;
    const from = Date.parse(`${v.from}T00:00:00Z`);
    const to = Date.parse(`${v.to}T00:00:00Z`);
    if (to < from) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: "The end date must be on or after the start date",
      });
      return;
    }
    const days = (to - from) / DAY_MS + 1;
    if (days > USAGE_MAX_RANGE_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["from"],
        message: `Choose a range of at most ${USAGE_MAX_RANGE_DAYS} days`,
      });
    } else if (v.granularity === "hour" && days > USAGE_MAX_HOURLY_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["granularity"],
        message: `Hourly detail covers at most ${USAGE_MAX_HOURLY_DAYS} days; use daily for longer ranges`,
      });
    }
  });
export type GetUsageOverviewInput = z.input<typeof getUsageOverviewInput>;

/** Usage of a project or a whole organization over a range of UTC days, from hourly rollups. */
export interface UsageOverview {
  /**
   * The UTC days the figures cover (`from`…`to`, inclusive) and the exact instants: `start`
   * inclusive, `end` exclusive (ISO). A rolling window (`lastHours`) starts and ends on the hour.
   */
  range: { from: string; to: string; start: string; end: string };
  /** Events received before this instant are in the figures (ISO); null before the first rollup. */
  rolledUpTo: string | null;
  totals: {
    /** Every call the SDKs reported, denied ones included. */
    calls: number;
    errors: number;
    deniedCalls: number;
    /** Calls served by a fallback (model or provider). */
    fallbackCalls: number;
    /** Fallback calls that succeeded. */
    savedByFallbackCalls: number;
    /** Calls that ran but the catalogue could not price (their cost is unknown, not $0). */
    unpricedCalls: number;
    unpricedInputTokens: number;
    unpricedOutputTokens: number;
    inputTokens: number;
    outputTokens: number;
    /** Decimal string (USD) of priced calls only. */
    costUsd: string;
    /** What denied calls would have cost (decimal string, USD). */
    avoidedCostUsd: string;
  };
  /** One point per day (or hour) of the range, empty ones included. */
  series: {
    bucket: string;
    calls: number;
    costUsd: string;
    deniedCalls: number;
    fallbackCalls: number;
    unpricedCalls: number;
  }[];
  byProvider: {
    provider: string;
    calls: number;
    errors: number;
    costUsd: string;
    unpricedCalls: number;
    /** From the rollups' latency histograms: within one bucket (≤ ~19 %) of the exact value. */
    p50LatencyMs: number | null;
    p95LatencyMs: number | null;
  }[];
  byModel: {
    provider: string;
    model: string;
    calls: number;
    inputTokens: number;
    outputTokens: number;
    /** Null when every call that ran was unpriced. */
    costUsd: string | null;
    unpricedCalls: number;
  }[];
  /** Top tag values by cost (at most USAGE_TOP_TAGS). */
  byTag: {
    key: string;
    value: string;
    calls: number;
    costUsd: string;
    unpricedCalls: number;
    inputTokens: number;
    outputTokens: number;
  }[];
  /** Runs active in the range, top USAGE_TOP_RUNS by cost (their totals). */
  byRun: {
    projectId: string;
    agentRunId: string;
    name: string | null;
    calls: number;
    costUsd: string;
    avoidedCostUsd: string;
    stopped: boolean;
  }[];
  /** Fallback calls by failover reason; `saved` = served successfully. */
  failoversByReason: { reason: string; calls: number; saved: number }[];
  /** Spend of each period limit's current UTC window (now, whatever the range). */
  limits: {
    projectId: string;
    projectName: string;
    period: "daily" | "weekly" | "monthly";
    limitUsd: string;
    spentUsd: string;
    windowStart: string;
    windowEnd: string;
    percent: number;
  }[];
}

/**
 * The instants a usage input covers: whole UTC days `from`…`to`, or the last `lastHours` hourly
 * buckets up to and including the current hour (rollups are hourly, so a rolling window is too).
 */
export function usageWindow(
  input: { from?: string; to?: string; lastHours?: number },
  now: Date,
): { start: Date; end: Date } {
  if (input.lastHours !== undefined) {
    const end = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
    return { start: new Date(end - input.lastHours * HOUR_MS), end: new Date(end) };
  }
  return {
    start: new Date(`${input.from}T00:00:00Z`),
    end: new Date(Date.parse(`${input.to}T00:00:00Z`) + DAY_MS),
  };
}

/** A Postgres numeric as a decimal string: full precision, trailing zeros trimmed to cents. */
export function moneyString(v: string | null | undefined): string {
  if (v == null) return "0.00";
  let s = String(v);
  if (!s.includes(".")) return `${s}.00`;
  s = s.replace(/0+$/, "");
  const decimals = s.length - s.indexOf(".") - 1;
  return decimals < 2 ? s + "0".repeat(2 - decimals) : s;
}

const num = (v: bigint | number | string | null | undefined) => (v == null ? 0 : Number(v));

interface ModelRow {
  provider: string;
  model: string;
  calls: bigint;
  errors: bigint;
  denied: bigint;
  fallback: bigint;
  saved: bigint;
  unpriced: bigint;
  in_tok: string;
  out_tok: string;
  u_in: string;
  u_out: string;
  cost: string;
  avoided: string;
  hist: (string | null)[];
}

/**
 * The usage overview of one project (or every project of the caller's organization) over a range
 * of UTC days, read from hourly rollups only (never raw events), so it stays fast at millions of
 * events and keeps its history after retention. Another organization's project is NOT_FOUND.
 * Viewer role (enforced by the caller's procedure).
 */
export async function getUsageOverview(
  ctx: Ctx,
  raw: GetUsageOverviewInput,
  now = new Date(),
): Promise<UsageOverview> {
  const input = getUsageOverviewInput.parse(raw);
  const organizationId = ctx.organizationId;
  if (!organizationId) throw notFound("Organization");
  const projects = await ctx.db.project.findMany({
    where: { organizationId, ...(input.projectId ? { id: input.projectId } : {}) },
    select: { id: true, name: true },
    orderBy: { createdAt: "asc" },
  });
  if (input.projectId && projects.length === 0) throw notFound("Project");
  const ids = projects.map((p) => p.id);

  const { start, end } = usageWindow(input, now);
  const inRange = Prisma.sql`project_id = ANY(${ids}::text[]) AND hour >= ${start} AND hour < ${end}`;
  const unit = input.granularity === "hour" || input.lastHours !== undefined ? "hour" : "day";
  const histSums = Prisma.join(
    Array.from(
      { length: LATENCY_BUCKETS },
      (_, i) => Prisma.sql`sum(latency_histogram[${Prisma.raw(String(i + 1))}])`,
    ),
  );
  const week = windowOf("weekly", now);
  const month = windowOf("monthly", now);
  const day = windowOf("daily", now);
  const since = new Date(Math.min(week.start.getTime(), month.start.getTime()));

  const [models, series, tags, reasons, runs, limitRows, spent, rolledUpTo] = await Promise.all([
    ctx.db.$queryRaw<ModelRow[]>`
      SELECT provider, model, sum(calls)::bigint AS calls, sum(errors)::bigint AS errors,
             sum(denied_calls)::bigint AS denied, sum(fallback_calls)::bigint AS fallback,
             sum(saved_by_fallback_calls)::bigint AS saved, sum(unpriced_calls)::bigint AS unpriced,
             sum(input_tokens)::text AS in_tok, sum(output_tokens)::text AS out_tok,
             sum(unpriced_input_tokens)::text AS u_in, sum(unpriced_output_tokens)::text AS u_out,
             sum(cost_usd)::text AS cost, sum(avoided_cost_usd)::text AS avoided,
             ARRAY[${histSums}]::text[] AS hist
        FROM usage_rollups WHERE ${inRange}
       GROUP BY provider, model`,
    ctx.db.$queryRaw<
      { bucket: Date; calls: bigint; cost: string; denied: bigint; fallback: bigint; unpriced: bigint }[]
    >`
      SELECT date_trunc(${unit}, hour, 'UTC') AS bucket, sum(calls)::bigint AS calls, sum(cost_usd)::text AS cost,
             sum(denied_calls)::bigint AS denied, sum(fallback_calls)::bigint AS fallback,
             sum(unpriced_calls)::bigint AS unpriced
        FROM usage_rollups WHERE ${inRange}
       GROUP BY 1`,
    ctx.db.$queryRaw<
      {
        key: string;
        value: string;
        calls: bigint;
        cost: string;
        unpriced: bigint;
        in_tok: string;
        out_tok: string;
      }[]
    >`
      SELECT key, value, sum(calls)::bigint AS calls, sum(cost_usd)::text AS cost,
             sum(unpriced_calls)::bigint AS unpriced, sum(input_tokens)::text AS in_tok,
             sum(output_tokens)::text AS out_tok
        FROM usage_tag_rollups WHERE ${inRange}
       GROUP BY key, value
       ORDER BY sum(cost_usd) DESC, sum(calls) DESC, key, value
       LIMIT ${USAGE_TOP_TAGS}`,
    ctx.db.$queryRaw<{ reason: string; calls: bigint; saved: bigint }[]>`
      SELECT reason, sum(calls)::bigint AS calls, sum(saved)::bigint AS saved
        FROM usage_failover_rollups WHERE ${inRange}
       GROUP BY reason
       ORDER BY sum(calls) DESC, reason`,
    ctx.db.$queryRaw<
      {
        project_id: string;
        agent_run_id: string;
        name: string | null;
        call_count: number;
        cost: string;
        avoided: string;
        stopped: boolean;
      }[]
    >`
      SELECT project_id, agent_run_id, name, call_count, cost_usd::text AS cost,
             avoided_cost_usd::text AS avoided, stopped_at IS NOT NULL AS stopped
        FROM agent_runs
       WHERE project_id = ANY(${ids}::text[]) AND last_seen_at >= ${start} AND first_seen_at < ${end}
       ORDER BY cost_usd DESC, call_count DESC, agent_run_id
       LIMIT ${USAGE_TOP_RUNS}`,
    ctx.db.budgetLimit.findMany({
      where: { projectId: { in: ids } },
      select: { projectId: true, period: true, limitUsd: true },
    }),
    ctx.db.$queryRaw<{ project_id: string; daily: string; weekly: string; monthly: string }[]>`
      SELECT project_id,
             coalesce(sum(cost_usd) FILTER (WHERE hour >= ${day.start} AND hour < ${day.end}), 0)::text AS daily,
             coalesce(sum(cost_usd) FILTER (WHERE hour >= ${week.start} AND hour < ${week.end}), 0)::text AS weekly,
             coalesce(sum(cost_usd) FILTER (WHERE hour >= ${month.start} AND hour < ${month.end}), 0)::text AS monthly
        FROM usage_rollups
       WHERE project_id = ANY(${ids}::text[]) AND hour >= ${since}
       GROUP BY project_id`,
    usageRolledUpTo(ctx.db),
  ]);

  const totals: UsageOverview["totals"] = {
    calls: 0,
    errors: 0,
    deniedCalls: 0,
    fallbackCalls: 0,
    savedByFallbackCalls: 0,
    unpricedCalls: 0,
    unpricedInputTokens: 0,
    unpricedOutputTokens: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: "0",
    avoidedCostUsd: "0",
  };
  let cost = new Prisma.Decimal(0);
  let avoided = new Prisma.Decimal(0);
  const providers = new Map<
    string,
    { calls: number; errors: number; cost: Prisma.Decimal; unpriced: number; hist: number[] }
  >();
  const byModel: UsageOverview["byModel"] = [];
  for (const m of models) {
    const calls = num(m.calls);
    const denied = num(m.denied);
    const unpriced = num(m.unpriced);
    totals.calls += calls;
    totals.errors += num(m.errors);
    totals.deniedCalls += denied;
    totals.fallbackCalls += num(m.fallback);
    totals.savedByFallbackCalls += num(m.saved);
    totals.unpricedCalls += unpriced;
    totals.unpricedInputTokens += num(m.u_in);
    totals.unpricedOutputTokens += num(m.u_out);
    totals.inputTokens += num(m.in_tok);
    totals.outputTokens += num(m.out_tok);
    cost = cost.plus(m.cost ?? 0);
    avoided = avoided.plus(m.avoided ?? 0);
    const p = providers.get(m.provider) ?? {
      calls: 0,
      errors: 0,
      cost: new Prisma.Decimal(0),
      unpriced: 0,
      hist: new Array<number>(LATENCY_BUCKETS).fill(0),
    };
    p.calls += calls;
    p.errors += num(m.errors);
    p.cost = p.cost.plus(m.cost ?? 0);
    p.unpriced += unpriced;
    addHistogram(
      p.hist,
      m.hist.map((v) => (v == null ? 0 : Number(v))),
    );
    providers.set(m.provider, p);
    const ran = calls - denied;
    byModel.push({
      provider: m.provider,
      model: m.model,
      calls,
      inputTokens: num(m.in_tok),
      outputTokens: num(m.out_tok),
      costUsd: ran > 0 && unpriced === ran ? null : moneyString(m.cost),
      unpricedCalls: unpriced,
    });
  }
  totals.costUsd = moneyString(cost.toFixed());
  totals.avoidedCostUsd = moneyString(avoided.toFixed());
  byModel.sort(
    (a, b) =>
      Number(b.costUsd ?? 0) - Number(a.costUsd ?? 0) || b.calls - a.calls || a.model.localeCompare(b.model),
  );

  const byProvider: UsageOverview["byProvider"] = [...providers]
    .map(([provider, p]) => ({
      provider,
      calls: p.calls,
      errors: p.errors,
      costUsd: moneyString(p.cost.toFixed()),
      unpricedCalls: p.unpriced,
      p50LatencyMs: latencyPercentile(p.hist, 0.5),
      p95LatencyMs: latencyPercentile(p.hist, 0.95),
    }))
    .sort((a, b) => b.calls - a.calls || a.provider.localeCompare(b.provider));

  // A dense series: every day (or hour) of the range, zero where nothing happened.
  const step = unit === "hour" ? 3_600_000 : DAY_MS;
  const points = new Map(series.map((s) => [s.bucket.getTime(), s]));
  const denseSeries: UsageOverview["series"] = [];
  for (let t = start.getTime(); t < end.getTime(); t += step) {
    const s = points.get(t);
    denseSeries.push({
      bucket: new Date(t).toISOString(),
      calls: num(s?.calls),
      costUsd: moneyString(s?.cost ?? "0"),
      deniedCalls: num(s?.denied),
      fallbackCalls: num(s?.fallback),
      unpricedCalls: num(s?.unpriced),
    });
  }

  const names = new Map(projects.map((p) => [p.id, p.name]));
  const spentBy = new Map(spent.map((s) => [s.project_id, s]));
  const periodOrder = { daily: 0, weekly: 1, monthly: 2 } as const;
  const limits: UsageOverview["limits"] = limitRows
    .map((l) => {
      const period = l.period as "daily" | "weekly" | "monthly";
      const w = windowOf(period, now);
      const spentUsd = spentBy.get(l.projectId)?.[period] ?? "0";
      const limit = new Prisma.Decimal(l.limitUsd);
      const percent = limit.isZero()
        ? 0
        : Number(new Prisma.Decimal(spentUsd).div(limit).times(100).toDecimalPlaces(1).toString());
      return {
        projectId: l.projectId,
        projectName: names.get(l.projectId) ?? "",
        period,
        limitUsd: moneyString(limit.toFixed()),
        spentUsd: moneyString(spentUsd),
        windowStart: w.start.toISOString(),
        windowEnd: w.end.toISOString(),
        percent,
      };
    })
    .sort(
      (a, b) => a.projectName.localeCompare(b.projectName) || periodOrder[a.period] - periodOrder[b.period],
    );

  return {
    range: {
      from: start.toISOString().slice(0, 10),
      to: new Date(end.getTime() - 1).toISOString().slice(0, 10),
      start: start.toISOString(),
      end: end.toISOString(),
    },
    rolledUpTo: rolledUpTo?.toISOString() ?? null,
    totals,
    series: denseSeries,
    byProvider,
    byModel,
    byTag: tags.map((t) => ({
      key: t.key,
      value: t.value,
      calls: num(t.calls),
      costUsd: moneyString(t.cost),
      unpricedCalls: num(t.unpriced),
      inputTokens: num(t.in_tok),
      outputTokens: num(t.out_tok),
    })),
    byRun: runs.map((r) => ({
      projectId: r.project_id,
      agentRunId: r.agent_run_id,
      name: r.name,
      calls: num(r.call_count),
      costUsd: moneyString(r.cost),
      avoidedCostUsd: moneyString(r.avoided),
      stopped: r.stopped,
    })),
    failoversByReason: reasons.map((r) => ({ reason: r.reason, calls: num(r.calls), saved: num(r.saved) })),
    limits,
  };
}
