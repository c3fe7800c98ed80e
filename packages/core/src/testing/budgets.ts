// Fixtures shared by the budget integration tests (real Postgres and Redis; no mocks).
import { type Config, parseConfig, processEnv } from "@breakwater/config";
import { createDb, type PrismaClient } from "@breakwater/db";
import { type RedisClient, scanKeys, whenReady } from "@breakwater/queue";
import { pino } from "pino";
import type { BudgetDeps } from "../budgets/budget-deps";
import { budgetPricingFromCatalogue } from "../budgets/budget-pricing";
import { createBudgetRedis } from "../budgets/budget-redis";
import { budgetPrefix } from "../budgets/redis-keys";
import { windowOf } from "../budgets/windows";
import { systemCtx } from "../context";
import { newId } from "../ids";
import { SEED_PRICE_CARDS } from "../pricing/catalogue-seed";
import type { PriceCardInput } from "../pricing/price-card";
import { PriceCatalogue } from "../pricing/price-catalogue";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";

/** $1 per input token, $2 per output token: with an output bound of 1, a check of N tokens reserves $N+2. */
export const DOLLAR_MODEL = { provider: "openai", model: "bw-test-dollar-per-token" } as const;

const DOLLAR_CARD: PriceCardInput = {
  provider: "openai",
  model: DOLLAR_MODEL.model,
  inputPerMtok: "1000000",
  cachedInputPerMtok: null,
  cacheWrite5mPerMtok: null,
  cacheWrite1hPerMtok: null,
  outputPerMtok: "2000000",
  source: "test fixture",
  sourceDate: "2026-11-30",
};

export const testCatalogue = PriceCatalogue.fromCards([...SEED_PRICE_CARDS, DOLLAR_CARD]);

export interface BudgetTestEnv {
  deps: BudgetDeps;
  db: PrismaClient;
  redis: RedisClient;
  config: Config;
  /** Resolves once the budget client is connected (it has no offline queue: a command sent before fails). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Deps on the test database and Redis db 1, with a $1/$2-per-token test model and an output bound of 1. */
export function budgetTestEnv(overrides: Partial<Config> = {}, db?: PrismaClient): BudgetTestEnv {
  const base = parseConfig(processEnv());
  const config: Config = { ...base, DEFAULT_OUTPUT_TOKEN_BOUND: 1, ...overrides };
  const ownDb = db ?? createDb(config.DATABASE_URL);
  const redis = createBudgetRedis(config);
  const deps: BudgetDeps = {
    db: ownDb,
    config,
    log: pino({ level: "silent" }),
    redis,
    pricing: budgetPricingFromCatalogue(testCatalogue),
  };
  return {
    deps,
    db: ownDb,
    redis,
    config,
    async ready() {
      if (!(await whenReady(redis, 10_000))) throw new Error("budget Redis not ready within 10 s");
    },
    async close() {
      redis.disconnect();
      if (!db) await ownDb.$disconnect();
    },
  };
}

export interface TestProjectOptions {
  mode?: "alert_only" | "hard_deny";
  limits?: { daily?: number; weekly?: number; monthly?: number };
  runCapUsd?: number;
  tagRules?: { selector: Record<string, string>; period: "daily" | "weekly" | "monthly"; limitUsd: number }[];
}

/** A fresh organization and project with the given budget rules. */
export async function makeProject(env: BudgetTestEnv, opts: TestProjectOptions = {}) {
  const sys = systemCtx({ db: env.db, config: env.config, log: env.deps.log });
  const suffix = newId("proj").slice(-10);
  const org = await createOrganization(sys, { name: `Budget test ${suffix}`, planSlug: "business" });
  const project = await createProject(sys, {
    organizationId: org.id,
    name: `budget ${suffix}`,
    mode: opts.mode ?? "alert_only",
    limits: opts.limits ?? { monthly: 100 },
  });
  if (opts.runCapUsd !== undefined) {
    await env.db.project.update({
      where: { id: project.id },
      data: { runSpendCapUsd: String(opts.runCapUsd) },
    });
  }
  for (const [i, r] of (opts.tagRules ?? []).entries()) {
    await env.db.tagRule.create({
      data: {
        id: newId("tagr"),
        projectId: project.id,
        name: `rule ${i}`,
        selector: r.selector,
        period: r.period,
        limitUsd: String(r.limitUsd),
      },
    });
  }
  return { org, project, projectId: project.id };
}

/** Deletes every budget key of one project (never a FLUSHDB: other suites share the database). */
export async function deleteProjectKeys(redis: RedisClient, projectId: string): Promise<number> {
  // Every master is scanned (a cluster spreads nothing of one project, but a SCAN sees one node);
  // the keys share the project's hash tag, so one DEL may take them all.
  const keys = await scanKeys(redis, `${budgetPrefix(projectId)}*`);
  let deleted = 0;
  for (let i = 0; i < keys.length; i += 500) deleted += await redis.del(...keys.slice(i, i + 500));
  return deleted;
}

/** A call id in the wire's canonical UUID form. */
export function callId(): string {
  return crypto.randomUUID();
}

const DAY_MS = 86_400_000;

/**
 * Now, after waiting out the last `marginMs` of a UTC day: a test that reads today's budget window
 * must not start just before it rolls over.
 */
export async function clearOfMidnight(marginMs = 10_000): Promise<number> {
  const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
  if (untilMidnight < marginMs) await new Promise((r) => setTimeout(r, untilMidnight + 50));
  return Date.now();
}

/** `agoMs` before `now`, but never before that day's UTC midnight (today's window must hold it). */
export const recentMs = (now: number, agoMs: number): number =>
  Math.max(now - agoMs, windowOf("daily", new Date(now)).start.getTime());
