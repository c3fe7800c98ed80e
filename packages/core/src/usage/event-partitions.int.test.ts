/**
 * metadata_events as a partitioned table, on a database of its own (the drops below depend on every
 * project's retention, so no other test's projects may be in it): the upgrade from the previous
 * release's unpartitioned table, inserts for days without a partition, replays across a partition
 * boundary, and partitions dropped by retention with rollups left as they were.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "@breakwater/config";
import { createDb, type PrismaClient } from "@breakwater/db";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../context";
import { newId } from "../ids";
import { type IngestEvent, ingestMetadataEvents } from "../ingest/ingest-metadata-events";
import { KnownTagValues } from "../ingest/tag-policy";
import { seedDefaultPlans } from "../plans/seed-default-plans";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";
import {
  DEFAULT_PARTITION,
  ensureEventPartitions,
  maintainEventPartitions,
  partitionName,
  utcDay,
} from "./maintain-event-partitions";
import { eventHorizonOf, rebuildUsageRollups } from "./rebuild-usage-rollups";
import { rollUpUsage } from "./roll-up-usage";

const DAY = 86_400_000;
const PARTITIONING = "20261204060000_partition_metadata_events";
const migrationsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../prisma/migrations",
);

const base = parseConfig(process.env).DATABASE_URL;
const dbUrl = new URL(base);
const dbName = `${decodeURIComponent(dbUrl.pathname.slice(1))}_parts`;
dbUrl.pathname = `/${dbName}`;
const adminUrl = new URL(base);
adminUrl.pathname = "/postgres";

let pool: pg.Pool;
let db: PrismaClient;
const log = pino({ level: "silent" });
const today = utcDay(new Date());
const dayAgo = (n: number) => new Date(today.getTime() - n * DAY);

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: adminUrl.toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Every row, every column, in id order: equal fingerprints = nothing lost or changed. */
async function fingerprint(): Promise<{ n: number; md5: string | null }> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n, md5(string_agg(to_jsonb(m)::text, '|' ORDER BY id)) AS md5 FROM metadata_events m`,
  );
  return rows[0];
}

async function partitionOf(callId: string): Promise<string> {
  const { rows } = await pool.query(
    `SELECT tableoid::regclass::text AS p FROM metadata_events WHERE call_id = $1`,
    [callId],
  );
  return rows.map((r) => r.p).join(",");
}

async function tableExists(name: string): Promise<boolean> {
  const { rows } = await pool.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [name]);
  return rows[0].e;
}

let seq = 0;
function ev(at: Date, extra: Partial<IngestEvent> = {}): IngestEvent {
  seq++;
  const micros = at.getTime() * 1000 + (seq % 1000);
  const iso = `${at.toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
  return {
    model: "gpt-5.5",
    provider: "openai",
    modality: "text",
    input_tokens: 10,
    output_tokens: 5,
    latency_ms: 12,
    status: "success",
    is_model_fallback: false,
    is_provider_fallback: false,
    attempt_index: 0,
    call_id: randomUUID(),
    sdk_instance_id: "sdk-parts",
    agent_run_id: "run-parts",
    timestamp: { micros, iso, date: new Date(Math.floor(micros / 1000)) },
    ...extra,
  };
}

const pricing = { actualCostNanos: () => 1_500n, avoidedCostNanos: () => 2_000n };
const ingestDeps = () => ({ pg: pool, log, knownTags: new KnownTagValues(), pricing });

beforeAll(async () => {
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${dbName}"`);
  pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 3 });
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await pool?.end();
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
});

describe("metadata_events partitioned by day", () => {
  it("the upgrade from the unpartitioned table keeps every row, its id and the id sequence", {
    timeout: 60_000,
  }, async () => {
    const folders = readdirSync(migrationsDir)
      .filter((f) => /^\d{14}_/.test(f))
      .sort();
    expect(folders).toContain(PARTITIONING);
    const sql = (f: string) => readFileSync(path.join(migrationsDir, f, "migration.sql"), "utf8");
    // The previous release's schema: every migration before this one (each run as one script).
    for (const f of folders.slice(0, folders.indexOf(PARTITIONING))) await pool.query(sql(f));

    // A previous release's data: 4 projects × 21 days, ids with gaps (deleted rows), one event in
    // 1995 and one 40 days ahead (no partition is made for those: they go to DEFAULT).
    await pool.query(`
      INSERT INTO metadata_events (project_id, call_id, attempt_index, "timestamp", sdk_instance_id, model, provider,
        status, input_tokens, output_tokens, token_details, latency_ms, is_model_fallback, agent_run_id, tags,
        velocity_flags, cost_usd, priced, received_at)
      SELECT 'prj_legacy_' || (g % 4), gen_random_uuid(), g % 2, now() - (g % 21) * interval '1 day' - g * interval '1 second',
             'sdk-' || (g % 7), 'gpt-5.5', 'openai', CASE WHEN g % 9 = 0 THEN 'error' ELSE 'success' END, g, g * 2,
             CASE WHEN g % 5 = 0 THEN jsonb_build_object('cached_tokens', g) END, g % 900, g % 11 = 0, 'run-' || (g % 13),
             CASE WHEN g % 3 = 0 THEN jsonb_build_object('team', 't' || (g % 4)) END,
             CASE WHEN g % 17 = 0 THEN ARRAY['burst'] ELSE ARRAY[]::text[] END,
             CASE WHEN g % 6 = 0 THEN NULL ELSE g / 1000000.0 END, g % 6 <> 0, now() - interval '1 hour'
        FROM generate_series(1, 3000) g`);
    await pool.query(`DELETE FROM metadata_events WHERE id % 10 = 3`);
    await pool.query(`
      INSERT INTO metadata_events (project_id, call_id, "timestamp", sdk_instance_id, model, provider, status,
        input_tokens, output_tokens, latency_ms, is_model_fallback, agent_run_id, priced, received_at)
      VALUES ('prj_legacy_0', 'aaaaaaaa-0000-4000-8000-000000001995', '1995-06-01T12:00:00Z', 'sdk-old', 'gpt-5.5', 'openai',
              'success', 1, 1, 1, false, 'run-old', false, now() - interval '1 hour'),
             ('prj_legacy_1', 'aaaaaaaa-0000-4000-8000-000000000040', now() + interval '40 days', 'sdk-new', 'gpt-5.5',
              'openai', 'success', 1, 1, 1, false, 'run-new', false, now() - interval '1 hour')`);
    await pool.query(`SELECT nextval('metadata_events_id_seq') FROM generate_series(1, 5)`); // burnt ids
    const before = await fingerprint();
    const lastId = (await pool.query(`SELECT last_value::text AS v FROM metadata_events_id_seq`)).rows[0].v;
    expect(before.n).toBe(2702);

    await pool.query(sql(PARTITIONING));

    expect(await fingerprint()).toEqual(before);
    const kind = await pool.query(
      `SELECT relkind::text AS k FROM pg_class WHERE relname = 'metadata_events'`,
    );
    expect(kind.rows[0].k).toBe("p");
    for (let k = 0; k <= 20; k++) expect(await tableExists(partitionName(dayAgo(k)))).toBe(true);
    expect(await tableExists(partitionName(new Date(today.getTime() + 7 * DAY)))).toBe(true);
    expect(await partitionOf("aaaaaaaa-0000-4000-8000-000000001995")).toBe(DEFAULT_PARTITION);
    expect(await partitionOf("aaaaaaaa-0000-4000-8000-000000000040")).toBe(DEFAULT_PARTITION);
    // The sequence went on from where it was: no id is handed out twice.
    const next = (await pool.query(`SELECT nextval('metadata_events_id_seq')::text AS v`)).rows[0].v;
    expect(BigInt(next)).toBe(BigInt(lastId) + 1n);

    // The remaining migrations (none yet) and the seeds of a real install, for the tests below.
    for (const f of folders.slice(folders.indexOf(PARTITIONING) + 1)) await pool.query(sql(f));
    db = createDb(dbUrl.toString());
    await seedDefaultPlans(db);
  });

  it("an insert for a time with no partition lands in DEFAULT, and moves out when its day gets a partition", {
    timeout: 60_000,
  }, async () => {
    const sys = systemCtx({
      db,
      config: parseConfig({ ...process.env, DATABASE_URL: dbUrl.toString() }),
      log,
    });
    const org = await createOrganization(sys, { name: `Parts ${newId("res")}`, planSlug: "business" });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const t = { organizationId: org.id, projectId: project.id };
    const in30 = new Date(today.getTime() + 30 * DAY + 5 * 3_600_000);
    const in40 = new Date(today.getTime() + 40 * DAY + 60_000);
    const batch = [ev(in30), ev(in40), ev(new Date(today.getTime() + 3_600_000))];
    const r = await ingestMetadataEvents(ingestDeps(), { ...t, events: batch });
    expect(r).toEqual({ ingested: 3, rejected: [], duplicates: [] });
    expect(await partitionOf(batch[0]!.call_id)).toBe(DEFAULT_PARTITION);
    expect(await partitionOf(batch[1]!.call_id)).toBe(DEFAULT_PARTITION);
    expect(await partitionOf(batch[2]!.call_id)).toBe(partitionName(today));
    // A replay of a DEFAULT row is still caught.
    expect((await ingestMetadataEvents(ingestDeps(), { ...t, events: [batch[1]!] })).duplicates).toHaveLength(
      1,
    );

    const before = await fingerprint();
    // 45 days ahead: both days get a partition, and their DEFAULT rows (the legacy one too) move.
    const m = await maintainEventPartitions(db, { aheadDays: 45 });
    expect(m.created).toContain(partitionName(in30));
    expect(m.created).toContain(partitionName(in40));
    expect(m.movedFromDefault).toBe(3);
    expect(m.dropped).toEqual([]); // business keeps 365 days: nothing is that old
    expect(await fingerprint()).toEqual(before);
    expect(await partitionOf(batch[0]!.call_id)).toBe(partitionName(in30));
    expect(await partitionOf(batch[1]!.call_id)).toBe(partitionName(in40));
    expect(await partitionOf("aaaaaaaa-0000-4000-8000-000000000040")).toBe(partitionName(in40));
    expect(await partitionOf("aaaaaaaa-0000-4000-8000-000000001995")).toBe(DEFAULT_PARTITION);
    // Running it again changes nothing.
    const again = await maintainEventPartitions(db, { aheadDays: 45 });
    expect(again.created).toEqual([]);
    expect(again.movedFromDefault).toBe(0);
    expect(await fingerprint()).toEqual(before);

    // Loading history in bulk: the days get their partitions first (once).
    const days = [dayAgo(30), dayAgo(29), dayAgo(28)].map(partitionName);
    expect(await ensureEventPartitions(db, dayAgo(30), new Date(dayAgo(28).getTime() + 1))).toEqual(days);
    expect(await ensureEventPartitions(db, dayAgo(30), dayAgo(28))).toEqual([]);
  });

  it("a replay across a partition boundary is deduplicated on both sides of midnight", async () => {
    const sys = systemCtx({
      db,
      config: parseConfig({ ...process.env, DATABASE_URL: dbUrl.toString() }),
      log,
    });
    const org = await createOrganization(sys, { name: `Replay ${newId("res")}`, planSlug: "business" });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const t = { organizationId: org.id, projectId: project.id };
    const midnight = today.getTime();
    const mk = (micros: number, extra: Partial<IngestEvent> = {}) => {
      const iso = `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
      return ev(new Date(0), {
        timestamp: { micros, iso, date: new Date(Math.floor(micros / 1000)) },
        agent_run_id: "run-midnight",
        ...extra,
      });
    };
    const batch = [
      mk(midnight * 1000 - 1), // 23:59:59.999999 yesterday
      mk(midnight * 1000), // 00:00:00.000000 today
      mk(midnight * 1000 - 2, { attempt_index: 0 }),
      mk(midnight * 1000 + 1, { sdk_instance_id: "sdk-other" }),
    ];
    expect(await ingestMetadataEvents(ingestDeps(), { ...t, events: batch })).toMatchObject({ ingested: 4 });
    expect(await partitionOf(batch[0]!.call_id)).toBe(partitionName(dayAgo(1)));
    expect(await partitionOf(batch[1]!.call_id)).toBe(partitionName(today));

    // The same batch again, reversed: every event is a duplicate found by its call key.
    const replay = await ingestMetadataEvents(ingestDeps(), { ...t, events: [...batch].reverse() });
    expect(replay.ingested).toBe(0);
    expect(replay.duplicates.map((d) => d.probe)).toEqual(["call_id", "call_id", "call_id", "call_id"]);
    // New call ids at the same instants from the same SDK instance: caught by the legacy key.
    const legacy = await ingestMetadataEvents(ingestDeps(), {
      ...t,
      events: batch.map((e) => ({ ...e, call_id: randomUUID() })),
    });
    expect(legacy.ingested).toBe(0);
    expect(legacy.duplicates.map((d) => d.probe)).toEqual([
      "legacy_key",
      "legacy_key",
      "legacy_key",
      "legacy_key",
    ]);

    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM metadata_events WHERE project_id = $1 AND "timestamp" >= $2 AND "timestamp" < $3`,
      [project.id, dayAgo(1), new Date(midnight + DAY)],
    );
    expect(rows[0].n).toBe(4);
    const run = await db.agentRun.findUniqueOrThrow({
      where: { projectId_agentRunId: { projectId: project.id, agentRunId: "run-midnight" } },
    });
    expect(run.callCount).toBe(4);
  });

  it("drops whole partitions past every project's retention, keeps the retained ones and the rollups", {
    timeout: 60_000,
  }, async () => {
    const sys = systemCtx({
      db,
      config: parseConfig({ ...process.env, DATABASE_URL: dbUrl.toString() }),
      log,
    });
    const org = await createOrganization(sys, { name: `Drop ${newId("res")}`, planSlug: "free" });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const t = { organizationId: org.id, projectId: project.id };
    const old = [
      ev(new Date(dayAgo(20).getTime() + 3_600_000)),
      ev(new Date(dayAgo(20).getTime() + 7_200_000)),
    ];
    const kept = [ev(new Date(dayAgo(5).getTime() + 3_600_000)), ev(new Date(today.getTime() + 60_000))];
    expect((await ingestMetadataEvents(ingestDeps(), { ...t, events: [...old, ...kept] })).ingested).toBe(4);
    await pool.query(`UPDATE metadata_events SET received_at = received_at - interval '5 minutes'
                       WHERE received_at > now() - interval '5 minutes'`);

    // Nothing is dropped while some project keeps a year, nor before the scheduler rolled up.
    expect((await maintainEventPartitions(db)).dropped).toEqual([]);
    for (const o of await db.organization.findMany({ where: { id: { not: org.id } } }))
      await db.entitlementOverride.create({
        data: {
          id: newId("ovr"),
          organizationId: o.id,
          featureKey: "retention_days",
          value: 7,
          reason: "test",
        },
      });
    const early = await maintainEventPartitions(db);
    // Empty old days go at once; the first one holding events not rolled up stops the run.
    expect(early.dropped).toEqual([dayAgo(30), dayAgo(29), dayAgo(28)].map(partitionName));
    expect(early.deferred).toMatch(/not rolled up/);
    expect(await tableExists(partitionName(dayAgo(20)))).toBe(true);

    await rollUpUsage(db);
    const rollups = async () =>
      (
        await pool.query(`SELECT hour, calls FROM usage_rollups WHERE project_id = $1 ORDER BY hour`, [
          project.id,
        ])
      ).rows.map((r) => `${r.hour.toISOString()}=${r.calls}`);
    const before = await rollups();
    expect(before).toHaveLength(4);

    const r = await maintainEventPartitions(db);
    // Every project keeps 7 days: partitions ending by today − 9 days go, whole.
    expect(r.dropBefore).toEqual(dayAgo(9));
    expect(r.dropped).toContain(partitionName(dayAgo(20)));
    expect(r.dropped).toContain(partitionName(dayAgo(10)));
    expect(r.dropped).not.toContain(partitionName(dayAgo(9)));
    expect(r.deletedFromDefault).toBe(1); // the 1995 stray
    expect(await tableExists(partitionName(dayAgo(20)))).toBe(false);
    expect(await tableExists(partitionName(dayAgo(9)))).toBe(true);
    expect(await eventHorizonOf(db)).toEqual(dayAgo(9));
    const left = await pool.query(
      `SELECT call_id::text AS c FROM metadata_events WHERE project_id = $1 ORDER BY 1`,
      [project.id],
    );
    expect(left.rows.map((x) => x.c)).toEqual(kept.map((e) => e.call_id).sort());
    // Legacy rows of the retained days are all still there (days 0–8 of 21, less the deleted ids).
    const legacy = await pool.query(
      `SELECT count(*)::int AS n FROM metadata_events WHERE project_id LIKE 'prj_legacy_%' AND "timestamp" < $1`,
      [dayAgo(9)],
    );
    expect(legacy.rows[0].n).toBe(0);

    // Rollups keep the dropped hours, and no rebuild can erase them: they are behind the horizon.
    expect(await rollups()).toEqual(before);
    const rebuilt = await rebuildUsageRollups(db, {
      projectId: project.id,
      fromHour: dayAgo(21),
      toHour: today,
    });
    expect(rebuilt.skippedBeforeRetention).toBeGreaterThan(0);
    expect(await rollups()).toEqual(before);

    // Idempotent: a second run drops nothing more.
    const again = await maintainEventPartitions(db);
    expect(again.dropped).toEqual([]);
    expect(again.created).toEqual([]);
  });
});
