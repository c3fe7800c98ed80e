import { Prisma, type PrismaClient, type Tx } from "@breakwater/db";
import { LATENCY_BUCKET_BOUNDS, LATENCY_BUCKETS } from "./latency-histogram";

const HOUR_MS = 3_600_000;
/** Longest span one call may rebuild (about 400 days of hours). */
export const MAX_REBUILD_HOURS = 24 * 400;
/** Interactive transactions that rebuild many hours of a busy project need more than Prisma's 5 s. */
export const REBUILD_TX_OPTIONS = { timeout: 300_000, maxWait: 30_000 } as const;

/** The UTC hour containing `at`. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** The one row of event_retention_horizons. */
export const EVENT_HORIZON_ID = "metadata_events";
/** Advisory lock key: shared by every rollup writer, exclusive while a partition is dropped. */
export const EVENT_PARTITIONS_LOCK = "bw:usage:partitions";

/**
 * Holds off partition drops for the rest of the transaction (shared: writers never wait for each
 * other). Take it before reading events, so a drop never sees a rebuild between its read of the
 * horizon and its read of the events.
 */
export async function holdEventPartitions(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${EVENT_PARTITIONS_LOCK}, 0))`;
}

/**
 * Serializes every writer of one project's rollups and retention floor (rebuilds, the scheduler,
 * retention) for the rest of the transaction, and holds off partition drops.
 */
export async function lockProjectUsage(tx: Tx, projectId: string): Promise<void> {
  await holdEventPartitions(tx);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`bw:usage:${projectId}`}, 0))`;
}

/** Where raw events are known complete for every project (partitions before it were dropped); null = nothing dropped. */
export async function eventHorizonOf(tx: Tx | PrismaClient): Promise<Date | null> {
  const row = await tx.eventRetentionHorizon.findUnique({ where: { id: EVENT_HORIZON_ID } });
  return row?.retainedFrom ?? null;
}

/**
 * Where the project's raw events are known complete (hours before it are never rebuilt); null =
 * everywhere. The later of the project's own floor and the horizon of dropped partitions.
 */
export async function retentionFloorOf(tx: Tx, projectId: string): Promise<Date | null> {
  const [row, horizon] = await Promise.all([
    tx.usageRetentionFloor.findUnique({ where: { projectId } }),
    eventHorizonOf(tx),
  ]);
  const own = row?.retainedFrom ?? null;
  if (own === null) return horizon;
  if (horizon === null) return own;
  return new Date(Math.max(own.getTime(), horizon.getTime()));
}

export interface RebuiltHours {
  /** Hours recomputed from raw events. */
  rebuilt: number;
  /** Hours asked for but left alone because retention may have deleted their raw events. */
  skippedBeforeRetention: number;
}

/**
 * Recomputes the given UTC hours of one project's rollups (usage, failover reasons, tags) from its
 * raw metadata events, inside the caller's transaction: delete the hours' rows, insert them again.
 * Hours before the project's retention floor are skipped, so a rebuild can never erase history
 * whose raw events are gone. Takes the project's usage lock.
 */
export async function rebuildHoursInTx(tx: Tx, projectId: string, hours: Date[]): Promise<RebuiltHours> {
  await lockProjectUsage(tx, projectId);
  const floor = await retentionFloorOf(tx, projectId);
  const keep = [...new Set(hours.map((h) => hourOf(h).getTime()))]
    .filter((t) => floor === null || t >= floor.getTime())
    .sort((a, b) => a - b)
    .map((t) => new Date(t));
  const skippedBeforeRetention = new Set(hours.map((h) => hourOf(h).getTime())).size - keep.length;
  if (keep.length === 0) return { rebuilt: 0, skippedBeforeRetention };

  const first = keep[0] as Date;
  const end = new Date((keep[keep.length - 1] as Date).getTime() + HOUR_MS);
  // Both the range (index on project_id, timestamp) and the exact hour list (sparse dirty hours).
  const inHours = Prisma.sql`project_id = ${projectId} AND "timestamp" >= ${first} AND "timestamp" < ${end}
      AND date_trunc('hour', "timestamp", 'UTC') = ANY(${keep}::timestamptz[])`;
  const rollupHours = Prisma.sql`project_id = ${projectId} AND hour = ANY(${keep}::timestamptz[])`;

  await tx.$executeRaw`DELETE FROM usage_rollups WHERE ${rollupHours}`;
  await tx.$executeRaw`DELETE FROM usage_failover_rollups WHERE ${rollupHours}`;
  await tx.$executeRaw`DELETE FROM usage_tag_rollups WHERE ${rollupHours}`;

  // One pass over the events: aggregate per (hour, provider, model, latency bucket), then fold the
  // buckets into the dense histogram array of each (hour, provider, model).
  await tx.$executeRaw`
    WITH fine AS (
      SELECT date_trunc('hour', "timestamp", 'UTC') AS hour, provider, model,
             width_bucket(latency_ms, ${[...LATENCY_BUCKET_BOUNDS]}::int[]) AS bk,
             count(*) AS calls,
             count(*) FILTER (WHERE status = 'error') AS errors,
             count(*) FILTER (WHERE status = 'budget_denied') AS denied,
             count(*) FILTER (WHERE is_model_fallback OR is_provider_fallback) AS fallback,
             count(*) FILTER (WHERE (is_model_fallback OR is_provider_fallback) AND status = 'success') AS saved,
             count(*) FILTER (WHERE NOT priced AND status <> 'budget_denied') AS unpriced,
             sum(input_tokens) AS in_tok,
             sum(output_tokens) AS out_tok,
             sum(input_tokens) FILTER (WHERE NOT priced AND status <> 'budget_denied') AS u_in,
             sum(output_tokens) FILTER (WHERE NOT priced AND status <> 'budget_denied') AS u_out,
             sum(cost_usd) AS cost,
             sum(avoided_cost_usd) AS avoided,
             sum(latency_ms) AS lat
        FROM metadata_events
       WHERE ${inHours}
       GROUP BY 1, 2, 3, 4
    ), per AS (
      SELECT hour, provider, model,
             sum(calls) AS calls, sum(errors) AS errors, sum(denied) AS denied, sum(fallback) AS fallback,
             sum(saved) AS saved, sum(unpriced) AS unpriced, sum(in_tok) AS in_tok, sum(out_tok) AS out_tok,
             coalesce(sum(u_in), 0) AS u_in, coalesce(sum(u_out), 0) AS u_out,
             coalesce(sum(cost), 0) AS cost, coalesce(sum(avoided), 0) AS avoided, sum(lat) AS lat,
             jsonb_object_agg(bk::text, calls) AS hist
        FROM fine
       GROUP BY 1, 2, 3
    )
    INSERT INTO usage_rollups (project_id, hour, provider, model, calls, errors, denied_calls, fallback_calls,
                               saved_by_fallback_calls, unpriced_calls, input_tokens, output_tokens,
                               unpriced_input_tokens, unpriced_output_tokens, cost_usd, avoided_cost_usd,
                               latency_ms_sum, latency_histogram)
    SELECT ${projectId}, hour, provider, model, calls, errors, denied, fallback, saved, unpriced, in_tok, out_tok,
           u_in, u_out, cost, avoided, lat,
           ARRAY(SELECT coalesce((hist ->> g::text)::int, 0) FROM generate_series(0, ${LATENCY_BUCKETS - 1}::int) g ORDER BY g)
      FROM per`;

  await tx.$executeRaw`
    INSERT INTO usage_failover_rollups (project_id, hour, provider, reason, calls, saved)
    SELECT ${projectId}, date_trunc('hour', "timestamp", 'UTC'), coalesce(requested_provider, provider),
           coalesce(failover_reason, 'unspecified'), count(*), count(*) FILTER (WHERE status = 'success')
      FROM metadata_events
     WHERE ${inHours} AND (is_model_fallback OR is_provider_fallback)
     GROUP BY 2, 3, 4`;

  await tx.$executeRaw`
    INSERT INTO usage_tag_rollups (project_id, hour, key, value, calls, cost_usd, unpriced_calls,
                                   input_tokens, output_tokens)
    SELECT ${projectId}, date_trunc('hour', e."timestamp", 'UTC'), t.key, t.value, count(*),
           coalesce(sum(e.cost_usd), 0), count(*) FILTER (WHERE NOT e.priced AND e.status <> 'budget_denied'),
           sum(e.input_tokens), sum(e.output_tokens)
      FROM metadata_events e CROSS JOIN LATERAL jsonb_each_text(e.tags) t
     WHERE ${inHours} AND jsonb_typeof(e.tags) = 'object'
     GROUP BY 2, 3, 4`;

  return { rebuilt: keep.length, skippedBeforeRetention };
}

export interface RebuildUsageRollupsInput {
  projectId: string;
  /** First hour to rebuild (any instant inside it). */
  fromHour: Date;
  /** Last hour to rebuild, inclusive (any instant inside it). */
  toHour: Date;
}

/**
 * Recomputes every UTC hour from `fromHour` through `toHour` (inclusive) of one project's rollups
 * from its raw metadata events, in one transaction; idempotent (running it twice leaves the same
 * rows). Hours before the project's retention floor are never touched. Used after re-pricing past
 * events, and by the rollup scheduler for dirty hours.
 */
export async function rebuildUsageRollups(
  db: PrismaClient,
  input: RebuildUsageRollupsInput,
): Promise<RebuiltHours> {
  const from = hourOf(input.fromHour).getTime();
  const to = hourOf(input.toHour).getTime();
  if (to < from) throw new RangeError("toHour is before fromHour");
  const count = (to - from) / HOUR_MS + 1;
  if (count > MAX_REBUILD_HOURS) throw new RangeError(`at most ${MAX_REBUILD_HOURS} hours per rebuild`);
  const hours = Array.from({ length: count }, (_, i) => new Date(from + i * HOUR_MS));
  return db.$transaction((tx) => rebuildHoursInTx(tx, input.projectId, hours), REBUILD_TX_OPTIONS);
}
