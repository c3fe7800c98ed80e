import { randomUUID } from "node:crypto";
import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import pg from "pg";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { nanosToDecimalString as nanosToDecimal } from "../budgets/money";
import { systemCtx } from "../context";
import { newId } from "../ids";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";
import { type IngestEvent, ingestMetadataEvents, runIdOf } from "./ingest-metadata-events";
import { KnownTagValues } from "./tag-policy";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
const log = pino({ level: "silent" });
const sys = systemCtx({ db, config, log });
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

let micros = 1_796_000_000_000_000;
function ev(extra: Partial<IngestEvent> = {}): IngestEvent {
  micros += 1;
  const ms = Math.floor(micros / 1000);
  const iso = `${new Date(ms).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
  return {
    model: "gpt-5.5",
    provider: "openai",
    modality: "text",
    input_tokens: 10,
    output_tokens: 5,
    latency_ms: 1,
    status: "success",
    is_model_fallback: false,
    is_provider_fallback: false,
    attempt_index: 0,
    call_id: randomUUID(),
    sdk_instance_id: "sdk",
    timestamp: { micros, iso, date: new Date(ms) },
    ...extra,
  };
}

const pricing = { actualCostNanos: () => 1_500n, avoidedCostNanos: () => 2_000n };

async function tenant() {
  const org = await createOrganization(sys, { name: `Ingest ${newId("res")}`, planSlug: "team" });
  const project = await createProject(sys, { organizationId: org.id, name: "p" });
  return { organizationId: org.id, projectId: project.id };
}

describe("ingestMetadataEvents", () => {
  it("holds each tag key to 1000 values account-wide; the batch's earlier event wins the last slot", async () => {
    const t = await tenant();
    await db.tagValue.createMany({
      data: Array.from({ length: 999 }, (_, i) => ({
        organizationId: t.organizationId,
        key: "customer",
        value: `c${i}`,
      })),
    });
    const deps = { pg: pool, log, knownTags: new KnownTagValues(), pricing };
    const result = await ingestMetadataEvents(deps, {
      ...t,
      events: [
        ev({ tags: { customer: "c1" } }), // known value
        ev({ tags: { customer: "new-1" } }), // takes the 1000th slot
        ev({ tags: { customer: "new-1" } }), // same value again: fine
        ev({ tags: { customer: "new-2" } }), // over the limit
      ],
    });
    expect(result.ingested).toBe(3);
    expect(result.rejected.map((r) => [r.index, r.code])).toEqual([[3, "tag_cardinality_exceeded"]]);
    expect(await db.tagValue.count({ where: { organizationId: t.organizationId, key: "customer" } })).toBe(
      1000,
    );
  });

  it("stores exact money, auto run ids by UTC date, and counts each run's calls once", async () => {
    const t = await tenant();
    const deps = { pg: pool, log, knownTags: new KnownTagValues(), pricing };
    const a = ev({ sdk_instance_id: "inst-9" });
    const denied = ev({ status: "budget_denied", agent_run_id: "r1", velocity_flags: ["repeat_size"] });
    const r = await ingestMetadataEvents(deps, { ...t, events: [a, denied, ev({ agent_run_id: "r1" })] });
    expect(r.ingested).toBe(3);
    const row = await db.metadataEvent.findFirstOrThrow({
      where: { projectId: t.projectId, callId: a.call_id },
    });
    expect(row.costUsd?.toString()).toBe("0.0000015");
    expect(row.agentRunId).toBe(runIdOf(a));
    expect(row.agentRunId).toBe(`_auto-inst-9-${a.timestamp.iso.slice(0, 10)}`);
    const run = await db.agentRun.findUniqueOrThrow({
      where: { projectId_agentRunId: { projectId: t.projectId, agentRunId: "r1" } },
    });
    expect(run.callCount).toBe(2);
    expect(run.avoidedCostUsd.toString()).toBe("0.000002");
    expect(run.velocityFlags).toEqual(["repeat_size"]);
    const auto = await db.agentRun.findUniqueOrThrow({
      where: { projectId_agentRunId: { projectId: t.projectId, agentRunId: runIdOf(a) } },
    });
    expect(auto.isAuto).toBe(true);
    expect(nanosToDecimal(-1_500n)).toBe("-0.000001500");
  });

  it("concurrent batches racing their replays: each event is stored and counted by exactly one batch, runs add up, spend is recorded once", async () => {
    const [t1, t2] = await Promise.all([tenant(), tenant()]);
    const spent: string[] = [];
    const deps = {
      pg: pool,
      log,
      knownTags: new KnownTagValues(),
      pricing,
      recordSpend: async (_p: string, items: { callId: string; attemptIndex: number }[]) => {
        for (const i of items) spent.push(`${i.callId}/${i.attemptIndex}`);
      },
    };
    // Twelve batches in flight at once over a pool of 2. Every batch repeats three events of the
    // previous batch of its project (an SDK replay racing the original); one batch carries another
    // project's ids (a different event).
    const batches: { t: typeof t1; events: IngestEvent[] }[] = [];
    for (let b = 0; b < 12; b++) {
      const t = b % 2 === 0 ? t1 : t2;
      const events = Array.from({ length: 20 }, (_, i) => ev({ agent_run_id: `run-${i % 3}` }));
      const prev = batches.at(-2); // the previous batch of the same project
      if (prev) events.push(...prev.events.slice(0, 3));
      batches.push({ t, events });
    }
    batches[1]!.events.push({ ...batches[0]!.events[5]! }); // same ids, other project: a new event
    const results = await Promise.all(
      batches.map((b) => ingestMetadataEvents(deps, { ...b.t, events: b.events })),
    );
    const ingested = results.reduce((n, r) => n + r.ingested, 0);
    const duplicates = results.reduce((n, r) => n + r.duplicates.length, 0);
    expect(ingested).toBe(12 * 20 + 1);
    expect(duplicates).toBe(10 * 3);
    for (const r of results) expect(r.duplicates.every((d) => d.probe === "call_id")).toBe(true);
    const stored = await db.metadataEvent.count({
      where: { projectId: { in: [t1.projectId, t2.projectId] } },
    });
    expect(stored).toBe(ingested);
    // Spend moved once per stored event, by the batch that stored it.
    expect(spent.length).toBe(ingested);
    const runs = await db.agentRun.findMany({ where: { projectId: t1.projectId } });
    expect(runs.reduce((n, r) => n + r.callCount, 0)).toBe(
      await db.metadataEvent.count({ where: { projectId: t1.projectId } }),
    );
  });

  it("batches that arrive while a project's statements run are written together, as if one after the other; a failing batch fails alone", async () => {
    const t = await tenant();
    // A pool of its own whose INSERT statements are counted (the statements still run on Postgres).
    const counted = new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 });
    let inserts = 0;
    const query = counted.query.bind(counted) as (...args: unknown[]) => unknown;
    (counted as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const q = args[0] as string | { text?: string };
      if ((typeof q === "string" ? q : (q.text ?? "")).includes("INSERT INTO metadata_events")) inserts++;
      return query(...args);
    };
    try {
      const deps = { pg: counted, log, knownTags: new KnownTagValues(), pricing };
      const batches = Array.from({ length: 9 }, () => Array.from({ length: 5 }, () => ev()));
      // Batch 6 repeats an event of batch 4 (call key); batch 8 has another call at the same
      // instant of the same SDK instance as an event of batch 7 (legacy key).
      batches[6]!.push({ ...batches[4]![2]! });
      const twin = batches[7]![1]!;
      batches[8]!.push(ev({ timestamp: twin.timestamp, sdk_instance_id: twin.sdk_instance_id }));
      const results = await Promise.all(
        batches.map((events) => ingestMetadataEvents(deps, { ...t, events })),
      );
      expect(inserts).toBeLessThan(9);
      expect(results.map((r) => r.ingested)).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 5]);
      expect(results[6]!.duplicates).toEqual([
        { index: 5, probe: "call_id", call_id: batches[4]![2]!.call_id },
      ]);
      expect(results[8]!.duplicates).toEqual([
        { index: 5, probe: "legacy_key", call_id: batches[8]![5]!.call_id },
      ]);
      expect(results.filter((r) => r.duplicates.length > 0).length).toBe(2);
      expect(await db.metadataEvent.count({ where: { projectId: t.projectId } })).toBe(45);

      // The last of five concurrent batches cannot be stored (a token count beyond the column's
      // range): it fails, and the batches written with it are stored all the same.
      const more = Array.from({ length: 5 }, () => [ev(), ev()]);
      more[4]!.push(ev({ input_tokens: 2 ** 40 }));
      const settled = await Promise.allSettled(
        more.map((events) => ingestMetadataEvents(deps, { ...t, events })),
      );
      expect(settled.map((r) => r.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "fulfilled",
        "fulfilled",
        "rejected",
      ]);
      for (const r of settled.slice(0, 4)) if (r.status === "fulfilled") expect(r.value.ingested).toBe(2);
      expect(await db.metadataEvent.count({ where: { projectId: t.projectId } })).toBe(53);
    } finally {
      await counted.end();
    }
  });
});
