import { newId } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, event, type Harness, INGEST, keys, post, startHarness } from "./testing/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("ingest", () => {
  it("partitions a mixed batch into exact lanes, durably, and replays as duplicates", async () => {
    const t = await createTenant(h);
    const sdk = `sdk-${newId("res")}`;
    const ts = "2026-11-30T10:00:00.123";
    const e0 = event({ sdk_instance_id: sdk, timestamp: `${ts}000Z` });
    const batch = [
      e0, // 0 ingested
      event({ tags: { "": "empty key" } }), // 1 invalid_tags
      { ...e0, sdk_instance_id: `${sdk}-b`, timestamp: "2026-11-30T10:00:01Z" }, // 2 duplicate (call_id)
      event({ modality: "hologram" }), // 3 unsupported_modality
      event({ agent_run_id: "run-a", agent_run_name: "A", tags: { team: "search" } }), // 4 ingested
      event({ sdk_instance_id: sdk, timestamp: `${ts}Z` }), // 5 duplicate (legacy key: same instant as 0)
      event({ model: " not a model" }), // 6 unknown_model
      { ...e0, attempt_index: 1, timestamp: "2026-11-30T10:00:02Z" }, // 7 ingested (another attempt)
      event({
        status: "budget_denied",
        token_details: undefined,
        output_tokens: 0,
        deny_source: "server",
        estimated_output_bound: 512,
      }), // 8 ingested, avoided cost
      event({ model: "unpriced-model-xyz" }), // 9 ingested, unpriced
      event({ service_tier: "ultra" }), // 10 unknown_service_tier
    ];
    const r = await post(h, INGEST, batch, t.key);
    expect(r.status).toBe(202);
    expect(r.headers.get("x-ratelimit-limit-minute")).toBeTruthy();
    const body = r.json() as {
      ingested: number;
      rejected: { index: number; code: string; model: string; message: string }[];
      duplicates: { index: number; probe: string; call_id: string }[];
    };
    expect(keys(body)).toEqual(["ingested", "rejected", "duplicates"]);
    expect(body.ingested).toBe(5);
    expect(body.rejected.map((x) => [x.index, x.code])).toEqual([
      [1, "invalid_tags"],
      [3, "unsupported_modality"],
      [6, "unknown_model"],
      [10, "unknown_service_tier"],
    ]);
    expect(body.rejected[2]!.model).toBe(" not a model");
    expect(body.duplicates).toEqual([
      { index: 2, probe: "call_id", call_id: e0.call_id },
      { index: 5, probe: "legacy_key", call_id: batch[5]!.call_id },
    ]);
    const rows = await h.db.metadataEvent.findMany({
      where: { projectId: t.projectId },
      orderBy: { id: "asc" },
    });
    expect(rows).toHaveLength(5);
    const auto = rows.find((x) => x.callId === e0.call_id && x.attemptIndex === 0)!;
    expect(auto.agentRunId).toBe(`_auto-${sdk}-2026-11-30`);
    expect(auto.priced).toBe(true);
    expect(Number(auto.costUsd)).toBeCloseTo(1000 * 5e-6 + 500 * 30e-6, 9);
    const denied = rows.find((x) => x.status === "budget_denied")!;
    expect(denied.costUsd).toBeNull();
    expect(Number(denied.avoidedCostUsd)).toBeGreaterThan(0);
    const unpriced = rows.find((x) => x.model === "unpriced-model-xyz")!;
    expect(unpriced.costUsd).toBeNull();
    expect(unpriced.priced).toBe(false);
    const run = await h.db.agentRun.findUniqueOrThrow({
      where: { projectId_agentRunId: { projectId: t.projectId, agentRunId: "run-a" } },
    });
    expect(run.name).toBe("A");
    expect(run.callCount).toBe(1);

    // A retried batch changes nothing and reports every stored event as a duplicate.
    const again = (await post(h, INGEST, batch, t.key)).json() as typeof body;
    expect(again.ingested).toBe(0);
    expect(again.rejected.map((x) => x.index)).toEqual([1, 3, 6, 10]);
    expect(again.duplicates.map((x) => [x.index, x.probe])).toEqual([
      [0, "call_id"],
      [2, "call_id"],
      [4, "call_id"],
      [5, "legacy_key"],
      [7, "call_id"],
      [8, "call_id"],
      [9, "call_id"],
    ]);
    expect(await h.db.metadataEvent.count({ where: { projectId: t.projectId } })).toBe(5);
    expect(
      (
        await h.db.agentRun.findUniqueOrThrow({
          where: { projectId_agentRunId: { projectId: t.projectId, agentRunId: "run-a" } },
        })
      ).callCount,
    ).toBe(1);
  });

  it("the same events sent concurrently in different orders are stored exactly once", async () => {
    const t = await createTenant(h);
    const events = Array.from({ length: 100 }, (_, i) => event({ agent_run_id: `run-${i % 3}` }));
    const shuffled = () => [...events].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(h, INGEST, shuffled(), t.key)));
    let ingested = 0;
    for (const a of answers) {
      expect(a.status).toBe(202);
      const body = a.json() as { ingested: number; rejected: unknown[]; duplicates: unknown[] };
      expect(body.ingested + body.rejected.length + body.duplicates.length).toBe(100);
      ingested += body.ingested;
    }
    expect(ingested).toBe(100);
    expect(await h.db.metadataEvent.count({ where: { projectId: t.projectId } })).toBe(100);
    const runs = await h.db.agentRun.findMany({ where: { projectId: t.projectId } });
    expect(runs.reduce((n, r) => n + r.callCount, 0)).toBe(100);
  });

  it("receipt events of the SDK contract are ingested", async () => {
    const t = await createTenant(h);
    for (const extra of [
      { deny_source: "server", velocity_flags: ["monotonic_growth", "repeat_size"] },
      { deny_source: "aggregate_replay", input_tokens: 3000, receipt_aggregate_count: 3 },
    ]) {
      const r = await post(
        h,
        INGEST,
        [
          event({
            status: "budget_denied",
            output_tokens: 0,
            latency_ms: 0,
            token_details: undefined,
            deny_reason: "monthly",
            denied_by_period: "monthly",
            estimated_output_bound: 512,
            agent_run_id: `contract-${crypto.randomUUID()}`,
            ...extra,
          }),
        ],
        t.key,
      );
      expect(r.status).toBe(202);
      expect(r.json()).toEqual({ ingested: 1, rejected: [], duplicates: [] });
    }
  });

  it("account-wide tag cardinality rejects only the events that would exceed it", async () => {
    const t = await createTenant(h);
    await h.db.tagValue.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({
        organizationId: t.organizationId,
        key: `k${i}`,
        value: "v",
      })),
    });
    const r = (
      await post(
        h,
        INGEST,
        [event({ tags: { k1: "v" } }), event({ tags: { brand_new: "x" } }), event({ tags: { k2: "other" } })],
        t.key,
      )
    ).json() as {
      ingested: number;
      rejected: { index: number; code: string }[];
    };
    expect(r.rejected).toEqual([expect.objectContaining({ index: 1, code: "tag_cardinality_exceeded" })]);
    expect(r.ingested).toBe(2);
  });
});
