import { randomUUID } from "node:crypto";
import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import pg from "pg";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { systemCtx } from "../context";
import { newId } from "../ids";
import { type IngestEvent, ingestMetadataEvents } from "../ingest/ingest-metadata-events";
import { KnownTagValues } from "../ingest/tag-policy";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";
import { applyUsageRetention } from "./apply-usage-retention";
import { getUsageOverview } from "./get-usage-overview";
import { getUsageRollupLagSeconds } from "./get-usage-rollup-lag";
import { latencyBucketOf, latencyBucketRange } from "./latency-histogram";
import { hourOf, rebuildUsageRollups } from "./rebuild-usage-rollups";
import { rollUpUsage, usageRolledUpTo } from "./roll-up-usage";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
const log = pino({ level: "silent" });
const sys = systemCtx({ db, config, log });
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNPRICED_MODEL = "house-model-7b";
// $0.000001 per input token, $0.000002 per output token; the house model has no card.
const pricing = {
  actualCostNanos: (e: IngestEvent) =>
    e.model === UNPRICED_MODEL ? null : BigInt(e.input_tokens) * 1000n + BigInt(e.output_tokens) * 2000n,
  avoidedCostNanos: (e: IngestEvent) =>
    e.model === UNPRICED_MODEL ? null : BigInt(e.input_tokens) * 1000n + 7n,
};
const ingestDeps = { pg: pool, log, knownTags: new KnownTagValues(), pricing };

let seq = 0;
function at(date: Date): IngestEvent["timestamp"] {
  seq++;
  const ms = date.getTime() + (seq % 997);
  const micros = ms * 1000 + (seq % 1000);
  const iso = `${new Date(ms).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
  return { micros, iso, date: new Date(ms) };
}

/** A deterministic pseudo-random mix of providers, models, statuses, fallbacks, tags and latencies. */
function mixedEvents(n: number, start: Date, spanMs: number, seed: number): IngestEvent[] {
  let s = seed;
  const rand = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  const models = [
    ["openai", "gpt-5.5"],
    ["openai", "gpt-5-mini"],
    ["anthropic", "claude-sonnet-4-5"],
    ["gemini", "gemini-2.5-pro"],
    ["local", UNPRICED_MODEL],
  ] as const;
  return Array.from({ length: n }, () => {
    const [provider, model] = pick(models);
    const r = rand();
    const status = r < 0.08 ? "error" : r < 0.14 ? "budget_denied" : "success";
    const fallback = status !== "budget_denied" && rand() < 0.2;
    const providerFallback = fallback && rand() < 0.5;
    const tagR = rand();
    return {
      model,
      provider,
      modality: "text",
      input_tokens: Math.floor(rand() * 4000),
      output_tokens: status === "budget_denied" ? 0 : Math.floor(rand() * 800),
      latency_ms: status === "budget_denied" ? 0 : Math.floor(30 + 4000 * rand() ** 3),
      status,
      is_model_fallback: fallback && !providerFallback,
      is_provider_fallback: providerFallback,
      requested_provider: fallback ? pick(["openai", "anthropic"]) : null,
      failover_reason: fallback ? pick(["rate_limited", "timeout", "server_error"]) : null,
      attempt_index: fallback ? 1 : 0,
      call_id: randomUUID(),
      sdk_instance_id: `sdk-${Math.floor(rand() * 3)}`,
      timestamp: at(new Date(start.getTime() + Math.floor(rand() * spanMs))),
      agent_run_id: rand() < 0.5 ? `run-${Math.floor(rand() * 4)}` : null,
      tags:
        tagR < 0.3 ? { team: pick(["search", "chat"]) } : tagR < 0.5 ? { team: "chat", env: "prod" } : null,
    } satisfies IngestEvent;
  });
}

async function tenant(planSlug = "business") {
  const org = await createOrganization(sys, { name: `Usage ${newId("res")}`, planSlug });
  const project = await createProject(sys, { organizationId: org.id, name: "usage", limits: { daily: 5 } });
  return { organizationId: org.id, projectId: project.id };
}

async function ingest(t: { organizationId: string; projectId: string }, events: IngestEvent[]) {
  for (let i = 0; i < events.length; i += 500) {
    const r = await ingestMetadataEvents(ingestDeps, { ...t, events: events.slice(i, i + 500) });
    expect(r.rejected).toEqual([]);
  }
}

/** Moves a project's (rolled-up) events' receipt into the past, as if the scheduler had seen them long ago. */
async function receivedLongAgo(projectId: string) {
  await pool.query(
    `UPDATE metadata_events SET received_at = received_at - interval '5 minutes' WHERE project_id = $1`,
    [projectId],
  );
}

async function rollupRows(projectId: string) {
  const { rows } = await pool.query(
    `SELECT 'u' AS t, hour, provider || '/' || model AS k, calls, errors, denied_calls, fallback_calls,
            saved_by_fallback_calls, unpriced_calls, input_tokens::text, output_tokens::text,
            unpriced_input_tokens::text, unpriced_output_tokens::text, cost_usd::text, avoided_cost_usd::text,
            latency_ms_sum::text, latency_histogram::text AS extra
       FROM usage_rollups WHERE project_id = $1
     UNION ALL
     SELECT 'f', hour, provider || '/' || reason, calls, saved, 0, 0, 0, 0, '', '', '', '', '', '', '', ''
       FROM usage_failover_rollups WHERE project_id = $1
     UNION ALL
     SELECT 't', hour, key || '=' || value, calls, unpriced_calls, 0, 0, 0, 0, input_tokens::text,
            output_tokens::text, '', '', cost_usd::text, '', '', ''
       FROM usage_tag_rollups WHERE project_id = $1
     ORDER BY 1, 2, 3`,
    [projectId],
  );
  return rows;
}

const overview = (t: { organizationId: string; projectId?: string }, from: string, to: string) =>
  getUsageOverview({ ...sys, organizationId: t.organizationId }, { projectId: t.projectId, from, to });

const day = (d: Date) => d.toISOString().slice(0, 10);

describe("usage rollups", () => {
  it("equal the raw events (unpriced in tokens, never $0), are idempotent and give percentiles within a bucket", async () => {
    const t = await tenant();
    const now = new Date();
    const start = new Date(hourOf(now).getTime() - 5 * HOUR);
    await ingest(t, mixedEvents(1500, start, 5 * HOUR, 11));
    await rollUpUsage(db);
    expect((await usageRolledUpTo(db))?.getTime()).toBeGreaterThan(now.getTime() - 1000);

    const o = await overview(t, day(start), day(now));
    const {
      rows: [raw],
    } = await pool.query(
      `SELECT count(*)::int AS calls, count(*) FILTER (WHERE status = 'error')::int AS errors,
              count(*) FILTER (WHERE status = 'budget_denied')::int AS denied,
              count(*) FILTER (WHERE is_model_fallback OR is_provider_fallback)::int AS fallback,
              count(*) FILTER (WHERE (is_model_fallback OR is_provider_fallback) AND status = 'success')::int AS saved,
              count(*) FILTER (WHERE cost_usd IS NULL AND status <> 'budget_denied')::int AS unpriced,
              coalesce(sum(input_tokens) FILTER (WHERE cost_usd IS NULL AND status <> 'budget_denied'), 0)::int AS u_in,
              coalesce(sum(output_tokens) FILTER (WHERE cost_usd IS NULL AND status <> 'budget_denied'), 0)::int AS u_out,
              sum(input_tokens)::int AS in_tok, sum(output_tokens)::int AS out_tok,
              sum(cost_usd)::text AS cost, sum(avoided_cost_usd)::text AS avoided
         FROM metadata_events WHERE project_id = $1`,
      [t.projectId],
    );
    expect(raw.calls).toBe(1500);
    expect(raw.unpriced).toBeGreaterThan(100);
    expect(o.totals).toEqual({
      calls: raw.calls,
      errors: raw.errors,
      deniedCalls: raw.denied,
      fallbackCalls: raw.fallback,
      savedByFallbackCalls: raw.saved,
      unpricedCalls: raw.unpriced,
      unpricedInputTokens: raw.u_in,
      unpricedOutputTokens: raw.u_out,
      inputTokens: raw.in_tok,
      outputTokens: raw.out_tok,
      costUsd: expect.any(String),
      avoidedCostUsd: expect.any(String),
    });
    expect(Number(o.totals.costUsd)).toBeCloseTo(Number(raw.cost), 9);
    expect(o.totals.costUsd).toMatch(/^\d+\.\d+$/);
    expect(Number(o.totals.avoidedCostUsd)).toBeCloseTo(Number(raw.avoided), 9);

    // The house model has no card: its cost is null (unknown), its tokens are counted.
    const house = o.byModel.find((m) => m.model === UNPRICED_MODEL);
    expect(house?.costUsd).toBeNull();
    expect(house?.unpricedCalls).toBeGreaterThan(0);
    expect(o.byModel.find((m) => m.model === "gpt-5.5")?.costUsd).toMatch(/^\d+\.\d+$/);
    expect(o.byModel.reduce((a, m) => a + m.calls, 0)).toBe(1500);
    expect(o.series.reduce((a, s) => a + s.calls, 0)).toBe(1500);

    // p50/p95 per provider fall inside the histogram bucket of the exact nearest-rank value.
    const { rows: exact } = await pool.query(
      `SELECT provider, array_agg(latency_ms ORDER BY latency_ms) AS l FROM metadata_events
        WHERE project_id = $1 GROUP BY provider`,
      [t.projectId],
    );
    for (const e of exact as { provider: string; l: number[] }[]) {
      const p = o.byProvider.find((x) => x.provider === e.provider)!;
      for (const [q, got] of [
        [0.5, p.p50LatencyMs],
        [0.95, p.p95LatencyMs],
      ] as const) {
        const v = e.l[Math.ceil(q * e.l.length) - 1]!;
        const [lo, hi] = latencyBucketRange(latencyBucketOf(v));
        expect(got).not.toBeNull();
        expect(got!).toBeGreaterThanOrEqual(lo);
        expect(got!).toBeLessThanOrEqual(hi);
      }
    }

    // Failovers by reason and tags equal the raw events.
    const { rows: reasons } = await pool.query(
      `SELECT failover_reason AS reason, count(*)::int AS calls, count(*) FILTER (WHERE status = 'success')::int AS saved
         FROM metadata_events WHERE project_id = $1 AND (is_model_fallback OR is_provider_fallback)
        GROUP BY 1 ORDER BY 2 DESC, 1`,
      [t.projectId],
    );
    expect(o.failoversByReason).toEqual(reasons);
    const { rows: tags } = await pool.query(
      `SELECT t.key, t.value, count(*)::int AS calls FROM metadata_events e, jsonb_each_text(e.tags) t
        WHERE project_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [t.projectId],
    );
    expect(
      o.byTag
        .map((x) => ({ key: x.key, value: x.value, calls: x.calls }))
        .sort((a, b) => `${a.key}=${a.value}`.localeCompare(`${b.key}=${b.value}`)),
    ).toEqual(tags);

    // Runs and the daily limit's window.
    expect(o.byRun.length).toBeGreaterThan(0);
    expect(o.byRun.reduce((a, r) => a + r.calls, 0)).toBe(1500);
    const daily = o.limits.find((l) => l.period === "daily")!;
    expect(daily).toMatchObject({
      projectId: t.projectId,
      limitUsd: "5.00",
      windowStart: `${day(now)}T00:00:00.000Z`,
    });

    // Idempotent: a second rebuild of every hour leaves exactly the same rows.
    const before = await rollupRows(t.projectId);
    expect(before.length).toBeGreaterThan(20);
    const r = await rebuildUsageRollups(db, { projectId: t.projectId, fromHour: start, toHour: now });
    expect(r.rebuilt).toBeGreaterThanOrEqual(6);
    expect(await rollupRows(t.projectId)).toEqual(before);
  });

  it("picks up late events for old hours on the next step, and nothing else changes", async () => {
    const t = await tenant();
    const now = new Date();
    await ingest(t, mixedEvents(200, new Date(now.getTime() - HOUR), HOUR, 5));
    await rollUpUsage(db);
    const threeDaysAgo = new Date(hourOf(now).getTime() - 3 * DAY);
    const before = await overview(t, day(threeDaysAgo), day(now));
    expect(before.totals.calls).toBe(200);

    const late = mixedEvents(7, threeDaysAgo, HOUR, 9).map((e) => ({ ...e, status: "success" as const }));
    await ingest(t, late);
    const step = await rollUpUsage(db);
    expect(step.caughtUp).toBe(true);
    const after = await overview(t, day(threeDaysAgo), day(now));
    expect(after.totals.calls).toBe(207);
    expect(after.series[0]?.calls).toBe(7);
  });

  it("rolls up an ingest that committed after a step although it was received before it", async () => {
    const t = await tenant();
    const step = await rollUpUsage(db);
    const stepAt = step.receivedBefore as Date;
    // A slow insert: its transaction began 10 s before the step ran and committed after it.
    await db.metadataEvent.create({
      data: {
        projectId: t.projectId,
        callId: randomUUID(),
        timestamp: new Date(stepAt.getTime() - 60_000),
        sdkInstanceId: "slow",
        model: "gpt-5.5",
        provider: "openai",
        status: "success",
        inputTokens: 1,
        outputTokens: 1,
        latencyMs: 5,
        isModelFallback: false,
        agentRunId: "r",
        costUsd: "0.5",
        priced: true,
        receivedAt: new Date(stepAt.getTime() - 10_000),
      },
    });
    await rollUpUsage(db);
    const o = await overview(t, day(new Date(stepAt.getTime() - 60_000)), day(new Date()));
    expect(o.totals).toMatchObject({ calls: 1, costUsd: "0.50" });
  });

  it("catches up after downtime in bounded chunks, one transaction each", async () => {
    const t = await tenant();
    const now = new Date();
    await ingest(t, mixedEvents(600, new Date(now.getTime() - 2 * DAY), 2 * DAY, 3));
    // The worker was down for the last hour: the events arrived at spread-out times since its watermark.
    await pool.query(
      `INSERT INTO usage_rollup_watermarks (id, received_before, updated_at) VALUES ('usage-rollups', now() - interval '1 hour', now())
       ON CONFLICT (id) DO UPDATE SET received_before = excluded.received_before`,
    );
    // Operators see the backlog as the rollup lag (the worker's breakwater_usage_rollup_lag_seconds).
    const behind = await getUsageRollupLagSeconds(db);
    expect(behind).toBeGreaterThanOrEqual(3600);
    expect(behind).toBeLessThan(3660);
    await pool.query(
      `UPDATE metadata_events SET received_at = now() - (interval '1 second' * (id % 3000)) WHERE project_id = $1`,
      [t.projectId],
    );
    const step = await rollUpUsage(db, { chunkEvents: 150 });
    expect(step.chunks).toBeGreaterThan(1);
    expect(step.caughtUp).toBe(true);
    expect(await getUsageRollupLagSeconds(db)).toBeLessThan(60);
    expect((await overview(t, day(new Date(now.getTime() - 2 * DAY)), day(now))).totals.calls).toBe(600);
  });

  it("a stopping worker starts no new chunk or retention project; the next run does the work", async () => {
    const t = await tenant("free"); // 7 days
    const now = new Date();
    const old = new Date(hourOf(now).getTime() - 10 * DAY);
    await ingest(t, mixedEvents(200, new Date(now.getTime() - 2 * HOUR), HOUR, 31));
    const range = [day(new Date(now.getTime() - 2 * HOUR)), day(now)] as const;

    const stopped = await rollUpUsage(db, { signal: AbortSignal.abort() });
    expect(stopped).toMatchObject({ ran: false, chunks: 0 });
    expect((await overview(t, ...range)).totals.calls).toBe(0);
    const step = await rollUpUsage(db);
    expect(step.ran).toBe(true);
    expect((await overview(t, ...range)).totals.calls).toBe(200);

    await ingest(t, mixedEvents(50, old, HOUR, 32));
    await rollUpUsage(db);
    await receivedLongAgo(t.projectId);
    const halted = await applyUsageRetention(db, {
      projectIds: [t.projectId],
      now,
      signal: AbortSignal.abort(),
    });
    expect(halted).toMatchObject({ deleted: 0, more: true, floorsRaised: 0 });
    expect((await applyUsageRetention(db, { projectIds: [t.projectId], now })).deleted).toBe(50);
  });

  it("never rebuilds an hour whose raw events retention may have deleted", async () => {
    const t = await tenant("free"); // 7 days
    const now = new Date();
    const old = new Date(hourOf(now).getTime() - 10 * DAY);
    await ingest(t, mixedEvents(300, old, 3 * HOUR, 21));
    await ingest(t, mixedEvents(100, new Date(now.getTime() - 2 * HOUR), HOUR, 22));
    await rollUpUsage(db);
    await receivedLongAgo(t.projectId);
    const range = [day(old), day(now)] as const;
    const before = await overview(t, ...range);
    expect(before.totals.calls).toBe(400);
    const rowsBefore = await rollupRows(t.projectId);

    const ret = await applyUsageRetention(db, { projectIds: [t.projectId], now });
    expect(ret.deleted).toBe(300);
    expect(ret.floorsRaised).toBe(1);
    // Rollups untouched: the page keeps its history.
    expect(await rollupRows(t.projectId)).toEqual(rowsBefore);

    // A full rebuild and a late event into a deleted hour both leave the old hours alone.
    const rb = await rebuildUsageRollups(db, { projectId: t.projectId, fromHour: old, toHour: now });
    expect(rb.skippedBeforeRetention).toBeGreaterThan(0);
    await ingest(t, mixedEvents(1, old, 60_000, 23));
    const step = await rollUpUsage(db);
    expect(step.hoursSkippedBeforeRetention).toBeGreaterThan(0);
    expect(await rollupRows(t.projectId)).toEqual(rowsBefore);
    expect((await overview(t, ...range)).totals).toEqual(before.totals);
  });

  it("retention deletes in bounded batches, honours plans and overrides, and waits for unrolled events", async () => {
    const now = new Date();
    const tenDays = new Date(hourOf(now).getTime() - 10 * DAY);
    const free = await tenant("free"); // 7 days
    const team = await tenant("team"); // 90 days
    const orgOverride = await tenant("free");
    const projOverride = await tenant("free");
    await db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: orgOverride.organizationId,
        featureKey: "retention_days",
        value: 30,
        reason: "test",
      },
    });
    await db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: projOverride.organizationId,
        projectId: projOverride.projectId,
        featureKey: "retention_days",
        value: 3,
        reason: "test",
      },
    });
    const fiveDays = new Date(hourOf(now).getTime() - 5 * DAY);
    for (const t of [free, team, orgOverride, projOverride]) {
      await ingest(t, mixedEvents(10, tenDays, HOUR, 31));
      await ingest(t, mixedEvents(4, fiveDays, HOUR, 32));
    }
    // Not rolled up yet: retention holds back.
    const all = [free, team, orgOverride, projOverride].map((t) => t.projectId);
    const early = await applyUsageRetention(db, { projectIds: all, now });
    expect(early.deleted).toBe(0);

    await rollUpUsage(db);
    for (const p of all) await receivedLongAgo(p);
    const first = await applyUsageRetention(db, { projectIds: all, now, batchSize: 4, maxBatches: 2 });
    expect(first).toMatchObject({ deleted: 8, batches: 2, more: true });
    let rest = await applyUsageRetention(db, { projectIds: all, now, batchSize: 4, maxBatches: 100 });
    expect(rest.more).toBe(false);
    rest = await applyUsageRetention(db, { projectIds: all, now, batchSize: 4, maxBatches: 100 });
    expect(rest.deleted).toBe(0);

    const left = async (p: string) =>
      (await pool.query(`SELECT count(*)::int AS n FROM metadata_events WHERE project_id = $1`, [p])).rows[0]
        .n;
    expect(await left(free.projectId)).toBe(4); // 7 days: the 10-day-old events went
    expect(await left(team.projectId)).toBe(14); // 90 days: all kept
    expect(await left(orgOverride.projectId)).toBe(14); // organization override 30 days
    expect(await left(projOverride.projectId)).toBe(0); // project override 3 days
    // Every project still shows its full history from rollups.
    for (const t of [free, team, orgOverride, projOverride]) {
      expect((await overview(t, day(tenDays), day(now))).totals.calls).toBe(14);
    }
  });

  it("retention: projects with nothing to delete never use up the batch budget of the ones after them", async () => {
    const now = new Date();
    const quiet = await tenant("team"); // created first: its id sorts first
    const busy = await tenant("free");
    await ingest(busy, mixedEvents(6, new Date(hourOf(now).getTime() - 10 * DAY), HOUR, 41));
    await rollUpUsage(db);
    await receivedLongAgo(busy.projectId);
    const r = await applyUsageRetention(db, {
      projectIds: [quiet.projectId, busy.projectId],
      now,
      maxBatches: 1,
    });
    expect(r).toMatchObject({ deleted: 6, more: false });
  });
});
