import { type PriceRepriceRun, Prisma } from "@breakwater/db";
import { createJobsClient, type JobsClient } from "@breakwater/queue";
import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { BUDGET_TIMINGS } from "../budgets/budget-deps";
import { budgetPricingFromCatalogue } from "../budgets/budget-pricing";
import { nanosToDecimalString } from "../budgets/money";
import { budgetKeys } from "../budgets/redis-keys";
import { currentWindows } from "../budgets/windows";
import type { Ctx, Deps } from "../context";
import { invalid, notFound } from "../errors";
import { newId } from "../ids";
import { eventPricing, type PricedEventFields } from "../ingest/event-pricing";
import { parseInput, requireOperator } from "../operator/operator-input";
import { rebuildUsageRollups } from "../usage/rebuild-usage-rollups";
import { loadLivePriceCatalogue } from "./load-price-catalogue";
import { isProviderId } from "./providers";

/** A model seen in traffic that the catalogue could not price. */
export interface UnpricedModelDto {
  provider: string;
  model: string;
  calls: number;
  /** Input + output tokens of those calls (a decimal string: sums can pass 2^53). */
  tokens: string;
  firstSeen: string;
  lastSeen: string;
  /** A card prices it now (its past events can be re-priced). */
  pricedNow: boolean;
  /** The latest re-pricing run of this model, if any. */
  run: RepriceRunDto | null;
}

export interface RepriceRunDto {
  id: string;
  provider: string;
  model: string;
  status: "queued" | "running" | "rebuilding" | "done" | "failed";
  total: number;
  repriced: number;
  skipped: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const ACTIVE = ["queued", "running", "rebuilding"];

function runDto(r: PriceRepriceRun): RepriceRunDto {
  return {
    id: r.id,
    provider: r.provider,
    model: r.model,
    status: r.status as RepriceRunDto["status"],
    total: r.total,
    repriced: r.repriced,
    skipped: r.skipped,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

export const listUnpricedModelsInput = z.object({
  /** Case-insensitive substring of the provider or model id. */
  search: z.string().trim().max(200).default(""),
});

/**
 * Models with unpriced events, most calls first (at most 200), optionally searched: the partial index on unpriced
 * events (metadata_events_unpriced_idx) holds only those rows, so this reads no priced traffic.
 */
export async function listUnpricedModels(ctx: Ctx, raw: unknown = {}): Promise<UnpricedModelDto[]> {
  requireOperator(ctx);
  const { search } = parseInput(listUnpricedModelsInput, raw ?? {});
  const like = `%${search.replace(/[\\%_]/g, "\\$&")}%`;
  const rows = await ctx.db.$queryRaw<
    { provider: string; model: string; calls: number; tokens: string; first_seen: Date; last_seen: Date }[]
  >`
    SELECT provider, model, count(*)::int AS calls,
           COALESCE(sum(input_tokens::bigint + output_tokens::bigint), 0)::text AS tokens,
           min("timestamp") AS first_seen, max("timestamp") AS last_seen
    FROM metadata_events
    WHERE NOT priced AND (${search} = '' OR model ILIKE ${like} OR provider ILIKE ${like})
    GROUP BY provider, model
    ORDER BY calls DESC, provider, model
    LIMIT 200`;
  const catalogue = await loadLivePriceCatalogue(ctx.db);
  const runs = rows.length
    ? await ctx.db.$queryRaw<PriceRepriceRun[]>`
        SELECT DISTINCT ON (provider, model) id, provider, model, status, total, repriced, skipped, cursor,
               error, created_by_id AS "createdById", created_at AS "createdAt", updated_at AS "updatedAt",
               finished_at AS "finishedAt"
        FROM price_reprice_runs
        WHERE (provider, model) IN (${Prisma.join(rows.map((r) => Prisma.sql`(${r.provider}, ${r.model})`))})
        ORDER BY provider, model, created_at DESC`
    : [];
  const runOf = new Map(runs.map((r) => [`${r.provider}\n${r.model}`, r]));
  return rows.map((r) => {
    const run = runOf.get(`${r.provider}\n${r.model}`);
    return {
      provider: r.provider,
      model: r.model,
      calls: r.calls,
      tokens: r.tokens,
      firstSeen: r.first_seen.toISOString(),
      lastSeen: r.last_seen.toISOString(),
      pricedNow: isProviderId(r.provider) && catalogue.resolve(r.provider, r.model) !== null,
      run: run ? runDto(run) : null,
    };
  });
}

export const startRepricingInput = z.object({
  provider: z.string().trim().min(1).max(64),
  model: z.string().trim().min(1).max(2048),
});

export type RepriceEnqueue = (runId: string) => Promise<void>;

/**
 * Starts re-pricing one model's past unpriced events (operator only): refused while no card
 * prices the model; an unfinished run of the same model is returned instead of a second one.
 * The run row is the progress the dashboard polls; the job is enqueued after it commits.
 */
export async function startRepricing(ctx: Ctx, raw: unknown): Promise<RepriceRunDto> {
  requireOperator(ctx);
  const input = parseInput(startRepricingInput, raw);
  const catalogue = await loadLivePriceCatalogue(ctx.db);
  if (!isProviderId(input.provider) || catalogue.resolve(input.provider, input.model) === null)
    throw invalid("No card prices this model yet: add or edit a card first", {
      fieldErrors: { model: "No card prices this model yet" },
    });
  const run = await ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`breakwater:reprice:${input.provider}:${input.model}`}))`;
    const active = await tx.priceRepriceRun.findFirst({
      where: { provider: input.provider, model: input.model, status: { in: ACTIVE } },
      orderBy: { createdAt: "desc" },
    });
    if (active) return { run: active, created: false };
    const total = await tx.metadataEvent.count({
      where: { provider: input.provider, model: input.model, priced: false },
    });
    const created = await tx.priceRepriceRun.create({
      data: {
        id: newId("rpr"),
        provider: input.provider,
        model: input.model,
        status: "queued",
        total,
        createdById: ctx.actor.type === "user" ? ctx.actor.userId : null,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: "price_reprice.started",
      targetType: "price_reprice_run",
      targetId: created.id,
      after: { provider: input.provider, model: input.model, unpricedEvents: total },
    });
    return { run: created, created: true };
  });
  // Also for a run already active: a job lost with Redis, or one that failed all its attempts, is
  // put back (jobId = run id, so a pending one is left alone) and resumes at the run's cursor.
  await jobsOf(ctx).ensure("price-reprice", { runId: run.run.id }, { jobId: run.run.id });
  return runDto(run.run);
}

const sharedJobs = new Map<string, JobsClient>();

/** The context's jobs client, else one per process (the dashboard has no worker connection of its own). */
function jobsOf(ctx: Ctx): JobsClient {
  if (ctx.jobs) return ctx.jobs;
  const key = `${ctx.config.REDIS_URL}\n${ctx.config.QUEUE_PREFIX}`;
  let jobs = sharedJobs.get(key);
  if (!jobs) {
    jobs = createJobsClient(ctx.config);
    sharedJobs.set(key, jobs);
  }
  return jobs;
}

/** The latest re-pricing runs, newest first (operator only): the console's progress list. */
export async function listRepriceRuns(ctx: Ctx): Promise<RepriceRunDto[]> {
  requireOperator(ctx);
  const runs = await ctx.db.priceRepriceRun.findMany({ orderBy: { createdAt: "desc" }, take: 20 });
  return runs.map(runDto);
}

/** One re-pricing run (operator only): the dashboard polls it for progress. */
export async function getRepriceRun(ctx: Ctx, id: string): Promise<RepriceRunDto> {
  requireOperator(ctx);
  const run = await ctx.db.priceRepriceRun.findUnique({ where: { id } });
  if (!run) throw notFound("Re-pricing run");
  return runDto(run);
}

/** Rebuilds usage rollups of one project over whole hours [fromHour, toHour] (from the usage package). */
export type RebuildRollups = (
  db: Deps["db"],
  range: { projectId: string; fromHour: Date; toHour: Date },
) => Promise<unknown>;

export interface RepriceOptions {
  /** Events per transaction (bounded batches keep locks and memory small). */
  batchSize?: number;
  /** Rebuilds the usage rollups of the hours a run changed (default: rebuildUsageRollups). */
  rebuildRollups?: RebuildRollups;
  /** Called after each committed batch (tests stop a run here to simulate a crash). */
  afterBatch?: (run: RepriceRunDto) => Promise<void> | void;
}

interface EventRow {
  id: bigint;
  project_id: string;
  timestamp: Date;
  /** The timestamp to the microsecond (a Date keeps milliseconds only). */
  ts: string;
  status: string;
  agent_run_id: string;
  provider: string;
  model: string;
  modality: string;
  input_tokens: number;
  output_tokens: number;
  token_details: Record<string, number | boolean> | null;
  media_usage: Record<string, unknown> | null;
  service_tier: string | null;
  provider_region: string | null;
  receipt_aggregate_count: number | null;
  receipt_pricing_input_tokens: number | null;
  estimated_output_bound: number | null;
}

/**
 * Re-prices the unpriced events of a run's model with the catalogue as stored now, in batches of
 * `batchSize` events each committed in one transaction together with the run's cursor, the agent
 * runs' totals and the (project, hour) pairs touched — so a crash loses at most an uncommitted
 * batch and a re-run resumes at the cursor. Idempotent: only rows still unpriced are updated, and a
 * finished run does nothing. Costs come from the same event pricing as ingest (costOfCall for
 * served calls, the reservation for denied ones). Afterwards the usage rollups of the touched
 * hours are rebuilt, and the budget counters of projects whose touched events fall in a window
 * still open are dropped so the next check rebuilds them from Postgres (counters then agree with
 * the durable events instead of drifting until the next Redis loss).
 */
export async function repriceUnpricedEvents(
  deps: Deps,
  runId: string,
  opts: RepriceOptions = {},
): Promise<RepriceRunDto> {
  const batchSize = opts.batchSize ?? 500;
  let run = await deps.db.priceRepriceRun.findUnique({ where: { id: runId } });
  if (!run) throw notFound("Re-pricing run");
  if (run.status === "done" || run.status === "failed") return runDto(run);
  const catalogue = await loadLivePriceCatalogue(deps.db);
  const pricing = eventPricing(budgetPricingFromCatalogue(catalogue), deps.config.DEFAULT_OUTPUT_TOKEN_BOUND);

  if (run.status !== "rebuilding") {
    run = await deps.db.priceRepriceRun.update({ where: { id: runId }, data: { status: "running" } });
    for (;;) {
      const batch = await deps.db.$transaction(async (tx) => {
        const current = await tx.priceRepriceRun.findUniqueOrThrow({ where: { id: runId } });
        const rows = await tx.$queryRaw<EventRow[]>`
          SELECT id, project_id, "timestamp", "timestamp"::text AS ts, status, agent_run_id, provider, model, modality, input_tokens,
                 output_tokens, token_details, media_usage, service_tier, provider_region,
                 receipt_aggregate_count, receipt_pricing_input_tokens, estimated_output_bound
          FROM metadata_events
          WHERE provider = ${current.provider} AND model = ${current.model} AND NOT priced AND id > ${current.cursor}
          ORDER BY id
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return { done: true, run: current };
        const priced: { id: bigint; at: Date; ts: string; cost: string | null; avoided: string | null }[] =
          [];
        for (const r of rows) {
          const e = {
            provider: r.provider,
            model: r.model,
            modality: r.modality,
            token_details: r.token_details,
            input_tokens: r.input_tokens,
            output_tokens: r.output_tokens,
            media_usage: r.media_usage,
            service_tier: r.service_tier,
            provider_region: r.provider_region,
            receipt_aggregate_count: r.receipt_aggregate_count,
            receipt_pricing_input_tokens: r.receipt_pricing_input_tokens,
            estimated_output_bound: r.estimated_output_bound,
          } as PricedEventFields;
          const denied = r.status === "budget_denied";
          const nanos = denied ? pricing.avoidedCostNanos(e as never) : pricing.actualCostNanos(e as never);
          if (nanos === null) continue;
          priced.push({
            id: r.id,
            at: r.timestamp,
            ts: r.ts,
            cost: denied ? null : nanosToDecimalString(nanos),
            avoided: denied ? nanosToDecimalString(nanos) : null,
          });
        }
        let updated: {
          project_id: string;
          agent_run_id: string;
          hour: Date;
          cost: string;
          avoided: string;
          n: number;
        }[] = [];
        if (priced.length > 0) {
          // One statement: the events (guarded on NOT priced, so a replay changes nothing), then the
          // agent runs' totals and the touched hours from exactly the rows that changed.
          // The primary key is (id, timestamp): the timestamp bounds keep the update to the batch's
          // partitions.
          const times = priced.map((p) => p.at.getTime());
          const firstTs = new Date(Math.min(...times));
          const afterTs = new Date(Math.max(...times) + 1);
          updated = await tx.$queryRaw`
            WITH v AS (
              SELECT * FROM unnest(${priced.map((p) => p.id)}::bigint[], ${priced.map((p) => p.ts)}::timestamptz[],
                                   ${priced.map((p) => p.cost)}::numeric[],
                                   ${priced.map((p) => p.avoided)}::numeric[]) AS v(id, ts, cost, avoided)
            ), upd AS (
              UPDATE metadata_events m
                 SET cost_usd = v.cost, avoided_cost_usd = COALESCE(v.avoided, m.avoided_cost_usd), priced = true
                FROM v
               WHERE m.id = v.id AND m."timestamp" = v.ts AND NOT m.priced
                 AND m."timestamp" >= ${firstTs} AND m."timestamp" < ${afterTs}
              RETURNING m.project_id, m.agent_run_id, date_trunc('hour', m."timestamp", 'UTC') AS hour,
                        COALESCE(v.cost, 0) AS cost, COALESCE(v.avoided, 0) AS avoided
            )
            SELECT project_id, agent_run_id, hour, sum(cost)::text AS cost, sum(avoided)::text AS avoided,
                   count(*)::int AS n
            FROM upd GROUP BY project_id, agent_run_id, hour`;
          if (updated.length > 0) {
            // Several hours of one agent run come back as several rows: summed per run first, since
            // UPDATE … FROM applies only one matching source row per target row.
            await tx.$executeRaw`
              UPDATE agent_runs a
                 SET cost_usd = a.cost_usd + d.cost, avoided_cost_usd = a.avoided_cost_usd + d.avoided,
                     unpriced_calls = GREATEST(a.unpriced_calls - d.n, 0)
                FROM (SELECT project_id, agent_run_id, sum(cost) AS cost, sum(avoided) AS avoided, sum(n)::int AS n
                        FROM unnest(${updated.map((u) => u.project_id)}::text[],
                                    ${updated.map((u) => u.agent_run_id)}::text[],
                                    ${updated.map((u) => u.cost)}::numeric[],
                                    ${updated.map((u) => u.avoided)}::numeric[],
                                    ${updated.map((u) => u.n)}::int[]) AS x(project_id, agent_run_id, cost, avoided, n)
                       GROUP BY project_id, agent_run_id) AS d
               WHERE a.project_id = d.project_id AND a.agent_run_id = d.agent_run_id`;
            await tx.$executeRaw`
              INSERT INTO price_reprice_hours (run_id, project_id, hour)
              SELECT ${runId}, p, h FROM unnest(${updated.map((u) => u.project_id)}::text[],
                                                ${updated.map((u) => u.hour)}::timestamptz[]) AS x(p, h)
              ON CONFLICT DO NOTHING`;
          }
        }
        const changed = updated.reduce((a, u) => a + u.n, 0);
        const next = await tx.priceRepriceRun.update({
          where: { id: runId },
          data: {
            cursor: rows[rows.length - 1]!.id,
            repriced: { increment: changed },
            skipped: { increment: rows.length - priced.length },
          },
        });
        return { done: false, run: next };
      });
      run = batch.run;
      if (batch.done) break;
      await opts.afterBatch?.(runDto(run));
    }
    run = await deps.db.priceRepriceRun.update({ where: { id: runId }, data: { status: "rebuilding" } });
  }

  await rebuildAfterRepricing(deps, runId, opts.rebuildRollups ?? rebuildUsageRollups);
  run = await deps.db.priceRepriceRun.update({
    where: { id: runId },
    data: { status: "done", finishedAt: new Date() },
  });
  deps.log.info({ runId, repriced: run.repriced, skipped: run.skipped }, "unpriced events re-priced");
  return runDto(run);
}

/** Contiguous runs of hours per project, so one rollup rebuild covers each stretch. */
export function hourRanges(hours: { projectId: string; hour: Date }[]): {
  projectId: string;
  fromHour: Date;
  toHour: Date;
}[] {
  const HOUR = 3_600_000;
  const byProject = new Map<string, number[]>();
  for (const h of hours) {
    const list = byProject.get(h.projectId) ?? [];
    list.push(h.hour.getTime());
    byProject.set(h.projectId, list);
  }
  const out: { projectId: string; fromHour: Date; toHour: Date }[] = [];
  for (const [projectId, list] of byProject) {
    list.sort((a, b) => a - b);
    let from = list[0]!;
    let prev = from;
    for (const t of list.slice(1)) {
      if (t - prev > HOUR) {
        out.push({ projectId, fromHour: new Date(from), toHour: new Date(prev) });
        from = t;
      }
      prev = t;
    }
    out.push({ projectId, fromHour: new Date(from), toHour: new Date(prev) });
  }
  return out;
}

async function rebuildAfterRepricing(deps: Deps, runId: string, rebuildRollups?: RebuildRollups) {
  const hours = await deps.db.priceRepriceHour.findMany({
    where: { runId },
    select: { projectId: true, hour: true },
  });
  if (hours.length === 0) return;
  if (rebuildRollups) {
    for (const range of hourRanges(hours)) await rebuildRollups(deps.db, range);
  }
  // Budget counters: a window (or an agent run's lifetime counter) still open that holds a
  // re-priced event no longer matches the events; dropping the project's built marker makes the
  // next check rebuild every counter from Postgres under the existing rebuild lock.
  const now = new Date();
  const w = currentWindows(now);
  const openSince = Math.min(
    w.daily.start.getTime(),
    w.weekly.start.getTime(),
    w.monthly.start.getTime(),
    now.getTime() - BUDGET_TIMINGS.runTtlMs,
  );
  const projects = new Set(
    hours.filter((h) => h.hour.getTime() + 3_600_000 > openSince).map((h) => h.projectId),
  );
  if (projects.size > 0 && deps.redis) {
    const redis = deps.redis;
    for (const projectId of projects) await redis.del(budgetKeys(projectId).built);
  }
}
