import { runScript } from "../budgets/lua";
import type { Deps } from "../context";
import { retentionByProject } from "../usage/apply-usage-retention";
import { BREAKER_FORGET_SCRIPT, fleetKeys, snapshotField } from "./fleet-redis";

const DAY_MS = 86_400_000;

export interface BreakerPruneResult {
  /** Snapshots of instances silent past the retention, deleted (and forgotten in Redis). */
  snapshots: number;
  /** Transition rows older than the plan's retention_days, deleted. */
  transitions: number;
  projects: number;
  /** True when it stopped at `maxBatches` or the signal with rows left: the next run goes on. */
  more: boolean;
}

/**
 * Keeps the fleet tables to their retention, in small batches that never hold a lock for long
 * (a report waits at most one batch's DELETE on its row):
 *
 * - a snapshot whose instance has been silent longer than BREAKER_SNAPSHOT_RETENTION_DAYS — never
 *   longer than the plan's `retention_days` — is deleted, unless an episode is still open on it
 *   (the stale sweep closes those first); autoscaling and deploys mint new instance ids all day,
 *   and without this the table and every fleet read grow without bound. Its Redis entry goes too,
 *   so the instance's next report (if it ever comes back) is a first report again;
 * - transitions older than the plan's `retention_days` are deleted (none when it is unlimited).
 */
export async function pruneBreakerHistory(
  deps: Pick<Deps, "db" | "log" | "config" | "redis">,
  opts: {
    now?: Date;
    batchSize?: number;
    maxBatches?: number;
    projectIds?: string[];
    signal?: AbortSignal;
  } = {},
): Promise<BreakerPruneResult> {
  const now = opts.now ?? new Date();
  const batchSize = opts.batchSize ?? 1_000;
  const maxBatches = opts.maxBatches ?? 500;
  // Only projects that have something at least a day old can have anything to prune (retention
  // is counted in whole days): an installation with thousands of projects resolves the
  // entitlements of the few with old rows, not of every project, every run.
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const candidates = await deps.db.$queryRaw<{ project_id: string }[]>`
    SELECT project_id FROM breaker_snapshots WHERE received_at < ${dayAgo}
      AND (${opts.projectIds ?? null}::text[] IS NULL OR project_id = ANY(${opts.projectIds ?? null}::text[]))
    UNION
    SELECT project_id FROM breaker_transitions WHERE reported_at < ${dayAgo}
      AND (${opts.projectIds ?? null}::text[] IS NULL OR project_id = ANY(${opts.projectIds ?? null}::text[]))`;
  if (candidates.length === 0) return { snapshots: 0, transitions: 0, projects: 0, more: false };
  const retention = await retentionByProject(
    deps.db,
    now,
    candidates.map((c) => c.project_id),
  );
  const settingDays = deps.config.BREAKER_SNAPSHOT_RETENTION_DAYS;
  let snapshots = 0;
  let transitions = 0;
  let batches = 0;
  let projects = 0;
  let more = false;
  for (const [projectId, planDays] of retention) {
    if (opts.signal?.aborted || batches >= maxBatches) {
      more = true;
      break;
    }
    projects++;
    // Whole days, at least one (a plan without retention keeps history a day).
    const keepDays = Math.max(1, Math.min(settingDays, planDays ?? Infinity));
    const snapshotCutoff = new Date(now.getTime() - keepDays * DAY_MS);
    for (;;) {
      const gone = await deps.db.$queryRaw<{ provider: string; sdk_instance_id: string }[]>`
        WITH old AS MATERIALIZED (
          SELECT provider, sdk_instance_id FROM breaker_snapshots
          WHERE project_id = ${projectId} AND received_at < ${snapshotCutoff} AND open_episode_id IS NULL
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED
        )
        DELETE FROM breaker_snapshots s
        USING old
        WHERE s.project_id = ${projectId} AND s.provider = old.provider
          AND s.sdk_instance_id = old.sdk_instance_id
          AND s.received_at < ${snapshotCutoff} AND s.open_episode_id IS NULL
        RETURNING s.provider, s.sdk_instance_id`;
      batches++;
      snapshots += gone.length;
      if (gone.length > 0 && deps.redis) {
        const keys = fleetKeys(projectId);
        await runScript(
          deps.redis,
          BREAKER_FORGET_SCRIPT,
          [keys.snap, keys.busy],
          gone.map((g) => snapshotField(g.provider, g.sdk_instance_id)),
        ).catch((err: unknown) =>
          // A Redis entry outliving its row only sends that instance's next report the slow way.
          deps.log.warn({ err, projectId }, "pruned snapshots not forgotten in Redis"),
        );
      }
      if (gone.length < batchSize) break;
      if (opts.signal?.aborted || batches >= maxBatches) {
        more = true;
        break;
      }
    }
    if (more || planDays === null) continue;
    const transitionCutoff = new Date(now.getTime() - Math.max(1, planDays) * DAY_MS);
    for (;;) {
      const n = await deps.db.$executeRaw`
        DELETE FROM breaker_transitions WHERE id IN (
          SELECT id FROM breaker_transitions
          WHERE project_id = ${projectId} AND reported_at < ${transitionCutoff}
          LIMIT ${batchSize})`;
      batches++;
      transitions += n;
      if (n < batchSize) break;
      if (opts.signal?.aborted || batches >= maxBatches) {
        more = true;
        break;
      }
    }
  }
  return { snapshots, transitions, projects, more };
}
