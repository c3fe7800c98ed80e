/**
 * Micro-benchmark of the budget hot path (not a test): warm checkBudget latency and throughput
 * beside the machine's floor — a bare EVALSHA of a trivial script on the same Redis connection.
 *
 *   npx tsx packages/core/src/budgets/bench/check-budget-bench.ts [iterations] [concurrency]
 *
 * Uses the test database and Redis db 1 (override with BENCH_DATABASE_URL / BENCH_REDIS_URL), a
 * fresh project with a huge limit, and deletes that project's budget keys afterwards.
 */
import { parseConfig, processEnv } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { systemCtx } from "../../context";
import { newId } from "../../ids";
import { createOrganization } from "../../tenancy/create-organization";
import { createProject } from "../../tenancy/create-project";
import { deleteProjectKeys, testCatalogue } from "../../testing/budgets";
import type { BudgetDeps } from "../budget-deps";
import { budgetPricingFromCatalogue } from "../budget-pricing";
import { createBudgetRedis } from "../budget-redis";
import { checkBudget } from "../check-budget";
import { confirmSpend } from "../confirm-spend";

const env = processEnv();
const config = parseConfig({
  ...env,
  DATABASE_URL: env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/breakwater_test",
  REDIS_URL: env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/1",
  LOG_LEVEL: "silent",
});
const iterations = Number(process.argv[2] ?? 20_000);
const concurrency = Number(process.argv[3] ?? 32);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return {
    p50: q(0.5).toFixed(3),
    p90: q(0.9).toFixed(3),
    p99: q(0.99).toFixed(3),
    max: s[s.length - 1]!.toFixed(3),
    mean: (s.reduce((a, b) => a + b, 0) / s.length).toFixed(3),
  };
}

async function sequential(n: number, op: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op();
    samples.push(performance.now() - t);
  }
  return stats(samples);
}

async function closedLoop(n: number, conc: number, op: () => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next++ < n) await op();
    }),
  );
  return Math.round(n / ((performance.now() - started) / 1000));
}

async function main() {
  const db = createDb(config.DATABASE_URL);
  const redis = createBudgetRedis(config);
  await new Promise((r) => redis.once("ready", r));
  const log = pino({ level: "silent" });
  const deps: BudgetDeps = { db, config, log, redis, pricing: budgetPricingFromCatalogue(testCatalogue) };
  const sys = systemCtx({ db, config, log });
  const org = await createOrganization(sys, {
    name: `bench ${newId("org").slice(-8)}`,
    planSlug: "business",
  });
  const project = await createProject(sys, {
    organizationId: org.id,
    name: "bench",
    mode: "hard_deny",
    limits: { daily: 1e8, weekly: 1e8, monthly: 1e8 },
  });
  const input = {
    projectId: project.id,
    provider: "openai",
    model: "gpt-5.5",
    estimatedInputTokens: 1200,
    fallbackProviders: ["anthropic"],
    fallbackModels: ["claude-sonnet-4-5"],
    modality: "text",
    uncountedCalls: 0,
    uncountedTokens: 0,
  };
  const tagged = { ...input, agentRunId: "bench-run", tags: { team: "search", env: "prod" } };
  const bare = "return 1";
  const sha = (await redis.script("LOAD", bare)) as string;
  try {
    await checkBudget(deps, input); // cold: loads the runtime, rebuilds the (empty) counters, loads the script
    for (let i = 0; i < 2_000; i++) await checkBudget(deps, input); // JIT warm-up

    const floor = await sequential(iterations, () => redis.evalsha(sha, 0));
    const check = await sequential(iterations, () => checkBudget(deps, input));
    const checkScoped = await sequential(iterations, () => checkBudget(deps, tagged));
    const reservations: string[] = [];
    for (let i = 0; i < 2_000; i++) reservations.push((await checkBudget(deps, input)).reservationId!);
    let c = 0;
    const confirm = await sequential(reservations.length, () =>
      confirmSpend(deps, {
        projectId: project.id,
        reservationId: reservations[c++]!,
        callId: crypto.randomUUID(),
        provider: "openai",
        model: "gpt-5.5",
        modality: "text",
        tokenDetails: { input_tokens: 1200, output_tokens: 300 },
      }),
    );
    const floorRps = await closedLoop(iterations, concurrency, () => redis.evalsha(sha, 0));
    const checkRps = await closedLoop(iterations, concurrency, () => checkBudget(deps, input));

    const held = await redis.zcard(`bw:bud:{${project.id}}:holds`);
    console.log(
      JSON.stringify(
        {
          iterations,
          concurrency,
          latencyMs: {
            bareEvalsha: floor,
            checkBudget: check,
            checkBudgetRunAndTags: checkScoped,
            confirmSpend: confirm,
          },
          throughputPerSec: {
            bareEvalsha: floorRps,
            checkBudget: checkRps,
            ratio: +(checkRps / floorRps).toFixed(2),
          },
          outstandingReservationsAtEnd: held,
        },
        null,
        2,
      ),
    );
  } finally {
    await deleteProjectKeys(redis, project.id); // every master's keys, on a cluster too
    redis.disconnect();
    await db.$disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
