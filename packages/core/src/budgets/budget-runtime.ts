import type { PrismaClient } from "@breakwater/db";
import { publishOn, type RedisClient, type RedisTarget } from "@breakwater/queue";
import type { Logger } from "pino";
import { publishInvalidation } from "../api-keys/invalidate-api-key";
import { INVALIDATION_CHANNEL, InvalidatingCache, InvalidationBus } from "../cache/invalidating-cache";
import { notFound } from "../errors";
import { usdToNanos } from "./money";
import { PERIOD_CODE, type Period } from "./windows";

/** A tag rule as the hot path needs it. `ref` = id@version: an edited rule gets fresh counters. */
export interface TagRuleRuntime {
  id: string;
  ref: string;
  period: Period;
  limitNanos: bigint;
  selector: Record<string, string>;
}

/** Everything a budget check needs from Postgres, held in process memory. */
export interface ProjectBudgetRuntime {
  projectId: string;
  organizationId: string;
  mode: "alert_only" | "hard_deny";
  limits: Record<Period, bigint | null>;
  runSpendCapNanos: bigint | null;
  tagRules: TagRuleRuntime[];
  /** Stopped agent runs → stop reason (1..64 chars). */
  stoppedRuns: Map<string, string>;
  /** Threshold alert percentages, ascending (evaluated when spend is recorded, never by a check). */
  thresholds: number[];
}

/** Name of the invalidation channel entry for budget runtimes (key = project id). */
export const BUDGET_RUNTIME_CACHE = "budget-runtime";
/** Safety-net expiry; correctness comes from pub/sub invalidation on every write. */
const RUNTIME_TTL_MS = 60_000;
export const DEFAULT_STOP_REASON = "manual_kill";

/** A selector is a flat {tag: value} object; anything else never matches (and is logged by the loader). */
export function parseSelector(raw: unknown): Record<string, string> | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== "string") return null;
    out[k] = v;
  }
  return out;
}

/** True when every selector pair is present in `tags` (selector ⊆ tags). */
export function selectorMatches(
  selector: Record<string, string>,
  tags: Record<string, string> | null | undefined,
): boolean {
  for (const k in selector) {
    if (!tags || !Object.hasOwn(tags, k) || tags[k] !== selector[k]) return false;
  }
  return true;
}

// One statement, no ORM query planning: a reload of a busy project's runtime ran ~2.8 ms of
// event-loop CPU through Prisma (three relations), every 45 s per project under refresh-ahead.
// Amounts come back as numeric text, tag-rule versions as epoch milliseconds (floored, exactly as
// a JS Date of the timestamptz reads them).
const RUNTIME_SQL = `
SELECT p.id, p.organization_id, p.mode::text AS mode, p.run_spend_cap_usd::text AS run_cap,
  array_to_json(p.alert_thresholds) AS thresholds,
  COALESCE((SELECT json_agg(json_build_object('period', l.period::text, 'limit', l.limit_usd::text))
              FROM budget_limits l WHERE l.project_id = p.id), '[]'::json) AS limits,
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'selector', r.selector, 'period', r.period::text,
                   'limit', r.limit_usd::text,
                   'version', floor(extract(epoch FROM r.updated_at) * 1000)::bigint::text)
                   ORDER BY r.created_at)
              FROM tag_rules r WHERE r.project_id = p.id AND r.enabled), '[]'::json) AS tag_rules,
  COALESCE((SELECT json_agg(json_build_object('id', a.agent_run_id, 'reason', a.stop_reason))
              FROM agent_runs a WHERE a.project_id = p.id AND a.stopped_at IS NOT NULL), '[]'::json) AS stopped
FROM projects p WHERE p.id = $1`;

interface RuntimeRow {
  id: string;
  organization_id: string;
  mode: "alert_only" | "hard_deny";
  run_cap: string | null;
  thresholds: number[] | null;
  limits: { period: Period; limit: string }[];
  tag_rules: { id: string; selector: unknown; period: Period; limit: string; version: string }[];
  stopped: { id: string; reason: string | null }[];
}

/** Reads a project's budget runtime from Postgres (the only budget read that touches Postgres, besides rebuilds). */
export async function loadProjectBudgetRuntime(
  db: PrismaClient,
  projectId: string,
): Promise<ProjectBudgetRuntime> {
  const [row] = await db.$queryRawUnsafe<RuntimeRow[]>(RUNTIME_SQL, projectId);
  if (!row) throw notFound("Project");
  const limits: Record<Period, bigint | null> = { daily: null, weekly: null, monthly: null };
  for (const l of row.limits) limits[l.period] = usdToNanos(l.limit);
  const tagRules: TagRuleRuntime[] = [];
  for (const r of row.tag_rules) {
    const selector = parseSelector(r.selector);
    if (!selector) continue;
    tagRules.push({
      id: r.id,
      ref: `${r.id}@${Number(r.version).toString(36)}`,
      period: r.period,
      limitNanos: usdToNanos(r.limit),
      selector,
    });
  }
  return {
    projectId: row.id,
    organizationId: row.organization_id,
    mode: row.mode,
    limits,
    runSpendCapNanos: row.run_cap === null ? null : usdToNanos(row.run_cap),
    tagRules,
    stoppedRuns: new Map(row.stopped.map((r) => [r.id, r.reason || DEFAULT_STOP_REASON])),
    thresholds: [...new Set(row.thresholds ?? [])].sort((a, b) => a - b),
  };
}

/** Tag-rule reference with its period code, as stored in reservation records ("ref:d"). */
export function ruleRefWithPeriod(rule: TagRuleRuntime): string {
  return `${rule.ref}:${PERIOD_CODE[rule.period]}`;
}

type RuntimeCache = InvalidatingCache<ProjectBudgetRuntime>;

// One cache per process and bus (or per Prisma client when no bus is wired, e.g. in tests).
const caches = new WeakMap<object, RuntimeCache>();

/** The process's budget-runtime cache for these deps (created on first use). */
export function budgetRuntimeCache(deps: {
  db: PrismaClient;
  bus?: InvalidationBus;
  log?: Logger;
}): RuntimeCache {
  const owner: object = deps.bus ?? deps.db;
  let cache = caches.get(owner);
  if (!cache) {
    cache = new InvalidatingCache<ProjectBudgetRuntime>({
      name: BUDGET_RUNTIME_CACHE,
      ttlMs: RUNTIME_TTL_MS,
      load: (projectId) => loadProjectBudgetRuntime(deps.db, projectId),
      bus: deps.bus,
      log: deps.log,
    });
    caches.set(owner, cache);
  }
  return cache;
}

/**
 * Drops a project's cached budget runtime in this process and on every replica (through the bus,
 * or a direct publish on the invalidation channel — over the context's Redis, else a shared
 * publisher to the configured Redis, as the dashboard has no budget client), so the next check sees new limits, rules,
 * modes and run stops. Call after any such write. Publishing is best effort: when Redis is down the
 * other replicas fall back to the cache's 60 s expiry (and their checks answer 503 meanwhile anyway).
 */
export async function invalidateProjectBudget(
  target:
    | InvalidationBus
    | {
        db: PrismaClient;
        bus?: InvalidationBus;
        redis?: RedisClient;
        log?: Logger;
        config?: RedisTarget;
      },
  projectId: string,
): Promise<void> {
  if (target instanceof InvalidationBus) {
    await target.publish(BUDGET_RUNTIME_CACHE, projectId);
    return;
  }
  caches.get(target.db)?.invalidateLocal(projectId);
  try {
    if (target.bus) await target.bus.publish(BUDGET_RUNTIME_CACHE, projectId);
    else if (target.redis)
      await publishOn(target.redis, INVALIDATION_CHANNEL, `${BUDGET_RUNTIME_CACHE}\n${projectId}`);
    else await publishInvalidation(target, BUDGET_RUNTIME_CACHE, projectId);
  } catch (err) {
    target.log?.warn({ err, projectId }, "budget runtime invalidation not published");
  }
}
