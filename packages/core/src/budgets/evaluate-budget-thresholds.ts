import type { BudgetThresholdEvent } from "../events/budget-events";
import { loadWebhookEventContext } from "../fleet/breaker-event-context";
import { newId } from "../ids";
import { enqueueWebhookDeliveries, recordWebhookEvent } from "../webhooks/record-webhook-event";
import type { BudgetDeps } from "./budget-deps";
import { withRedis } from "./budget-redis";
import { budgetRuntimeCache } from "./budget-runtime";
import { nanosToUsd } from "./money";
import { budgetKeys } from "./redis-keys";
import { currentWindows, PERIODS, type Period } from "./windows";

/** A threshold that fired: its alert row, its event and whether the plan lets it be delivered. */
export interface FiredThreshold {
  eventId: string;
  period: Period;
  windowKey: string;
  percent: number;
  deliverable: boolean;
}

// (project, window, percent) already fired, as far as this process knows: the common case after a
// crossing costs one MGET and no Postgres. The alert row's unique key is the real guarantee.
const knownFired = new Set<string>();
let knownFiredDay = "";

function firedKey(projectId: string, windowKey: string, percent: number): string {
  return `${projectId}|${windowKey}|${percent}`;
}

/**
 * Compares the project's live window usage with its threshold alerts and fires each crossed
 * (period, window, percent) exactly once: the alert row is inserted with ON CONFLICT DO NOTHING and
 * only the inserter writes the `budget_threshold_crossed` event and outbox row, in the same
 * transaction — so concurrent recorders on any number of replicas fire it once. The event is
 * deliverable only when the organization's effective `budget_webhooks` is on at that moment.
 * Runs after spend is recorded (confirm, ingest), never inside a budget check.
 */
export async function evaluateBudgetThresholds(
  deps: BudgetDeps,
  projectId: string,
  now: Date = new Date(),
): Promise<FiredThreshold[]> {
  const runtime = await budgetRuntimeCache(deps).get(projectId);
  if (runtime.thresholds.length === 0) return [];
  const windows = currentWindows(now);
  if (windows.daily.key !== knownFiredDay) {
    knownFired.clear();
    knownFiredDay = windows.daily.key;
  }
  const periods = PERIODS.filter((p) => {
    const limit = runtime.limits[p];
    if (limit === null || limit <= 0n) return false;
    return runtime.thresholds.some((t) => !knownFired.has(firedKey(projectId, windows[p].key, t)));
  });
  if (periods.length === 0) return [];

  const keys = budgetKeys(projectId);
  const usage = await withRedis(
    deps.redis,
    () => deps.redis.mget(...periods.map((p) => keys.usage(windows[p].key))),
    1_000,
  );
  const crossed: { period: Period; percent: number; spent: bigint; limit: bigint }[] = [];
  periods.forEach((p, i) => {
    const spent = BigInt(usage[i] ?? "0");
    const limit = runtime.limits[p]!;
    for (const t of runtime.thresholds) {
      if (knownFired.has(firedKey(projectId, windows[p].key, t))) continue;
      if (spent * 100n >= limit * BigInt(t)) crossed.push({ period: p, percent: t, spent, limit });
    }
  });
  if (crossed.length === 0) return [];

  const base = deps.config.PUBLIC_URL.replace(/\/+$/, "");
  const fired = await deps.db.$transaction(async (tx) => {
    const ctx = await loadWebhookEventContext(tx, projectId, now, "budget_webhooks");
    const out: FiredThreshold[] = [];
    for (const c of crossed) {
      const w = windows[c.period];
      const inserted = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO budget_threshold_alerts (id, project_id, period, window_key, percent, fired_at)
        VALUES (${newId("thr")}, ${projectId}, ${c.period}::"BudgetPeriod", ${w.key}, ${c.percent}, ${now})
        ON CONFLICT (project_id, period, window_key, percent) DO NOTHING
        RETURNING id`;
      if (inserted.length === 0) continue;
      const eventId = newId("evt");
      const payload: BudgetThresholdEvent = {
        type: "budget_threshold_crossed",
        timestamp: now.toISOString(),
        data: {
          event_id: eventId,
          project_id: projectId,
          project_name: ctx.projectName,
          period: c.period,
          window_start: w.start.toISOString(),
          window_end: w.end.toISOString(),
          threshold_percent: c.percent,
          limit_usd: nanosToUsd(c.limit),
          spent_usd: nanosToUsd(c.spent),
          mode: runtime.mode,
          dashboard_url: `${base}/projects/${projectId}/settings`,
        },
      };
      await recordWebhookEvent(tx, {
        id: eventId,
        organizationId: ctx.organizationId,
        projectId,
        episodeId: null,
        payload,
        deliverable: ctx.enabled,
        now,
      });
      out.push({ eventId, period: c.period, windowKey: w.key, percent: c.percent, deliverable: ctx.enabled });
    }
    return out;
  });
  for (const c of crossed) knownFired.add(firedKey(projectId, windows[c.period].key, c.percent));
  await enqueueWebhookDeliveries(
    deps,
    fired.filter((f) => f.deliverable).map((f) => f.eventId),
  );
  return fired;
}

/** Forgets what this process knows about fired thresholds (tests that rewind a window). */
export function forgetFiredThresholds(): void {
  knownFired.clear();
}

export interface ThresholdWatcher {
  /** Spend was recorded for the project: evaluate its thresholds soon, off the caller's path. */
  touch(projectId: string): void;
  /** Resolves when no evaluation is running (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * Runs evaluateBudgetThresholds in the background after confirms and ingests: at most one
 * evaluation per project at a time, and one more if spend arrived meanwhile, so a burst of
 * confirms costs a couple of Redis reads, and the response never waits for it.
 */
export function createThresholdWatcher(deps: BudgetDeps): ThresholdWatcher {
  const running = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  const run = async (projectId: string) => {
    try {
      do {
        dirty.delete(projectId);
        try {
          await evaluateBudgetThresholds(deps, projectId);
        } catch (err) {
          deps.log.warn({ err, projectId }, "budget threshold evaluation failed");
        }
      } while (dirty.has(projectId));
    } finally {
      running.delete(projectId);
    }
  };
  return {
    touch(projectId) {
      if (running.has(projectId)) {
        dirty.add(projectId);
        return;
      }
      running.set(projectId, run(projectId));
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
