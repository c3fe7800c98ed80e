import type { PrismaClient } from "@breakwater/db";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
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

/** Reads a project's budget runtime from Postgres (the only budget read that touches Postgres, besides rebuilds). */
export async function loadProjectBudgetRuntime(
  db: PrismaClient,
  projectId: string,
): Promise<ProjectBudgetRuntime> {
  const project = await db.project.findUnique({
    where: { id: projectId },
    include: {
      budgetLimits: true,
      tagRules: { where: { enabled: true }, orderBy: { createdAt: "asc" } },
      agentRuns: { where: { stoppedAt: { not: null } }, select: { agentRunId: true, stopReason: true } },
    },
  });
  if (!project) throw notFound("Project");
  const limits: Record<Period, bigint | null> = { daily: null, weekly: null, monthly: null };
  for (const l of project.budgetLimits) limits[l.period] = usdToNanos(l.limitUsd.toString());
  const tagRules: TagRuleRuntime[] = [];
  for (const r of project.tagRules) {
    const selector = parseSelector(r.selector);
    if (!selector) continue;
    tagRules.push({
      id: r.id,
      ref: `${r.id}@${r.updatedAt.getTime().toString(36)}`,
      period: r.period,
      limitNanos: usdToNanos(r.limitUsd.toString()),
      selector,
    });
  }
  return {
    projectId: project.id,
    organizationId: project.organizationId,
    mode: project.mode,
    limits,
    runSpendCapNanos: project.runSpendCapUsd === null ? null : usdToNanos(project.runSpendCapUsd.toString()),
    tagRules,
    stoppedRuns: new Map(project.agentRuns.map((r) => [r.agentRunId, r.stopReason || DEFAULT_STOP_REASON])),
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
 * or a direct publish on the invalidation channel), so the next check sees new limits, rules,
 * modes and run stops. Call after any such write. Publishing is best effort: when Redis is down the
 * other replicas fall back to the cache's 60 s expiry (and their checks answer 503 meanwhile anyway).
 */
export async function invalidateProjectBudget(
  target: InvalidationBus | { db: PrismaClient; bus?: InvalidationBus; redis?: Redis; log?: Logger },
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
      await target.redis.publish(INVALIDATION_CHANNEL, `${BUDGET_RUNTIME_CACHE}\n${projectId}`);
  } catch (err) {
    target.log?.warn({ err, projectId }, "budget runtime invalidation not published");
  }
}
