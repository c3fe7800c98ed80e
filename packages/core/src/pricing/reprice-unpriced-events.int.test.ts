import { randomBytes, randomUUID } from "node:crypto";
import { createJobsClient } from "@breakwater/queue";
import pg from "pg";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { checkBudget } from "../budgets/check-budget";
import { type Ctx, type Deps, systemCtx } from "../context";
import { type IngestEvent, ingestMetadataEvents } from "../ingest/ingest-metadata-events";
import { KnownTagValues } from "../ingest/tag-policy";
import { budgetTestEnv, makeProject } from "../testing/budgets";
import { costOfCall } from "./cost-of-call";
import { createPriceCard } from "./manage-price-cards";
import type { PriceCardInput } from "./price-card";
import type { PriceCardFieldsInput } from "./price-card-input";
import { PriceCatalogue } from "./price-catalogue";
import {
  hourRanges,
  listUnpricedModels,
  repriceUnpricedEvents,
  startRepricing,
} from "./reprice-unpriced-events";

const env = budgetTestEnv();
const pool = new pg.Pool({ connectionString: env.config.DATABASE_URL, max: 2 });
const log = pino({ level: "silent" });
const jobs = createJobsClient(env.config);
const deps: Deps = { db: env.db, config: env.config, log, redis: env.redis, jobs };
const sys = systemCtx(deps, "reprice-test");
const operator: Ctx = { ...sys, actor: { type: "user", userId: "user_reprice_test_op", isOperator: true } };
afterAll(async () => {
  await pool.end();
  await jobs.close();
  await env.close();
});

const unpriced = { actualCostNanos: () => null, avoidedCostNanos: () => null };

let micros = Date.now() * 1000 - 3_600_000_000;
function ev(model: string, extra: Partial<IngestEvent> = {}): IngestEvent {
  micros += 997;
  const ms = Math.floor(micros / 1000);
  const iso = `${new Date(ms).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
  return {
    model,
    provider: "openai_compatible",
    modality: "text",
    input_tokens: 1000,
    output_tokens: 500,
    token_details: { input_tokens: 1000, output_tokens: 500, cached_input_tokens: 200 },
    latency_ms: 1,
    status: "success",
    is_model_fallback: false,
    is_provider_fallback: false,
    attempt_index: 0,
    call_id: randomUUID(),
    sdk_instance_id: "sdk",
    timestamp: { micros, iso, date: new Date(ms) },
    agent_run_id: "run-a",
    ...extra,
  };
}

function card(model: string): PriceCardFieldsInput {
  return {
    provider: "openai_compatible",
    model,
    inputPerMtok: "3",
    cachedInputPerMtok: "0.3",
    outputPerMtok: "15",
    source: "https://example.test/pricing",
    sourceDate: "2026-11-30",
  };
}

async function ingest(projectId: string, organizationId: string, events: IngestEvent[]) {
  const r = await ingestMetadataEvents(
    { pg: pool, log, knownTags: new KnownTagValues(), pricing: unpriced },
    { projectId, organizationId, events },
  );
  expect(r.ingested).toBe(events.length);
}

describe("re-pricing unpriced events", () => {
  it("prices a model's past events in bounded batches, resumes after a crash, is idempotent, and fixes runs and counters", async () => {
    const model = `rp-${randomBytes(4).toString("hex")}`;
    const { org, projectId } = await makeProject(env, { limits: { monthly: 100 } });
    const events = [
      ...Array.from({ length: 5 }, () => ev(model)),
      ev(model, {
        status: "budget_denied",
        agent_run_id: "run-b",
        token_details: null,
        input_tokens: 400,
        output_tokens: 0,
      }),
      ev(model, { agent_run_id: "run-b" }),
    ];
    await ingest(projectId, org.id, events);

    // The counters are built while the events are unpriced: usage $0.
    const check = () =>
      checkBudget(env.deps, { projectId, provider: "ollama", model: "llama3", estimatedInputTokens: 0 });
    expect((await check()).currentUsage).toBe(0);

    const listed = (await listUnpricedModels(operator, { search: model })).find((m) => m.model === model);
    expect(listed).toMatchObject({ provider: "openai_compatible", calls: 7, pricedNow: false, run: null });
    const refused = await startRepricing(operator, { provider: "openai_compatible", model }).catch(
      (e: unknown) => e,
    );
    expect((refused as { code: string }).code).toBe("INVALID");

    await createPriceCard(operator, card(model));
    const run = await startRepricing(operator, { provider: "openai_compatible", model });
    expect(run).toMatchObject({ status: "queued", total: 7, repriced: 0 });
    // Asking again while it is pending returns the same run.
    expect((await startRepricing(operator, { provider: "openai_compatible", model })).id).toBe(run.id);

    // A "crash" after the first committed batch of 3.
    const crash = new Error("worker killed");
    const first = await repriceUnpricedEvents(deps, run.id, {
      batchSize: 3,
      afterBatch: () => {
        throw crash;
      },
    }).catch((e: unknown) => e);
    expect(first).toBe(crash);
    const mid = await env.db.priceRepriceRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(mid).toMatchObject({ status: "running", repriced: 3 });
    expect(await env.db.metadataEvent.count({ where: { projectId, model, priced: true } })).toBe(3);

    const batches: number[] = [];
    const done = await repriceUnpricedEvents(deps, run.id, {
      batchSize: 3,
      afterBatch: (r) => void batches.push(r.repriced),
    });
    expect(batches).toEqual([6, 7]);
    expect(done).toMatchObject({ status: "done", total: 7, repriced: 7, skipped: 0 });
    // Idempotent: a replayed job changes nothing.
    expect(await repriceUnpricedEvents(deps, run.id, { batchSize: 3 })).toMatchObject({ repriced: 7 });

    // Costs are the cost of a call at the new card (same function as ingest).
    const catalogue = PriceCatalogue.fromCards([
      {
        ...card(model),
        cacheWrite5mPerMtok: null,
        cacheWrite1hPerMtok: null,
        longContext: null,
      } as PriceCardInput,
    ]);
    const resolved = catalogue.resolve("openai_compatible", model)!;
    const perCall = costOfCall(resolved, {
      input_tokens: 1000,
      output_tokens: 500,
      cached_input_tokens: 200,
    })!;
    const rows = await env.db.metadataEvent.findMany({ where: { projectId, model }, orderBy: { id: "asc" } });
    expect(rows.every((r) => r.priced)).toBe(true);
    const served = rows.filter((r) => r.status !== "budget_denied");
    expect(served.map((r) => r.costUsd?.toFixed(9))).toEqual(
      served.map(() => Number(perCall.usd).toFixed(9)),
    );
    const denied = rows.find((r) => r.status === "budget_denied")!;
    expect(denied.costUsd).toBeNull();
    // A denied call is worth its reservation: 400 input tokens at $3/M + the output bound (1 token here) at $15/M.
    expect(denied.avoidedCostUsd?.toFixed(9)).toBe((400 * 3e-6 + 1 * 15e-6).toFixed(9));

    const runs = await env.db.agentRun.findMany({ where: { projectId }, orderBy: { agentRunId: "asc" } });
    expect(runs.map((r) => [r.agentRunId, r.unpricedCalls, r.costUsd.toFixed(9)])).toEqual([
      ["run-a", 0, (5 * Number(perCall.usd)).toFixed(9)],
      ["run-b", 0, Number(perCall.usd).toFixed(9)],
    ]);

    // The touched hours' rollups were rebuilt from the re-priced events.
    const rollups = await env.db.usageRollup.findMany({ where: { projectId, model } });
    expect(rollups.reduce((a, r) => a + r.calls, 0)).toBe(7);
    expect(rollups.reduce((a, r) => a + r.unpricedCalls, 0)).toBe(0);
    expect(rollups.reduce((a, r) => a + Number(r.costUsd), 0)).toBeCloseTo(6 * Number(perCall.usd), 9);

    // Windows still open: the counters now agree with the events (6 served calls).
    expect((await check()).currentUsage).toBeCloseTo(6 * Number(perCall.usd), 9);
    expect((await listUnpricedModels(operator, { search: model })).some((m) => m.model === model)).toBe(
      false,
    );
    const audits = await env.db.auditEvent.findMany({ where: { targetId: run.id } });
    expect(audits.map((a) => a.action)).toEqual(["price_reprice.started"]);
  });

  it("groups touched hours into contiguous ranges per project", () => {
    const h = (i: number) => new Date(Date.UTC(2026, 10, 30, i));
    expect(
      hourRanges([
        { projectId: "a", hour: h(3) },
        { projectId: "a", hour: h(1) },
        { projectId: "a", hour: h(2) },
        { projectId: "a", hour: h(7) },
        { projectId: "b", hour: h(1) },
      ]),
    ).toEqual([
      { projectId: "a", fromHour: h(1), toHour: h(3) },
      { projectId: "a", fromHour: h(7), toHour: h(7) },
      { projectId: "b", fromHour: h(1), toHour: h(1) },
    ]);
  });
});
