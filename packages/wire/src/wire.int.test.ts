import { invalidateEntitlements, newId, revokeApiKey } from "@breakwater/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  breakerPath,
  CHECK,
  CONFIRM,
  checkBody,
  createTenant,
  event,
  get,
  type Harness,
  INGEST,
  post,
  startHarness,
  surfaceReport,
  type Tenant,
  UNTRACKED,
  within,
} from "./test/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const INVALID_KEY = '{"detail":"Invalid API key"}';
const READ_ONLY = '{"detail":{"code":"read_only_key","message":"read-only project key cannot write"}}';
const keys = (x: unknown) => Object.keys(x as object);

describe("health, readiness and the OpenAPI document", () => {
  it("answers the probes", async () => {
    const health = await get(h, "/health");
    expect(health.status).toBe(200);
    expect(health.text).toBe('{"status":"ok"}');
    const ready = await get(h, "/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", postgres: "ok", redis: "ok" });
    const doc = (await get(h, "/api/v1/openapi.json")).json() as { openapi: string; paths: object };
    expect(doc.openapi).toBe("3.1.0");
    expect(keys(doc.paths)).toContain("/api/v1/budgets/check");
    expect(keys(doc.paths)).toContain("/api/v1/projects/{project_id}/providers/breaker-reports");
  });

  it("unknown paths are 404 and GET on a write endpoint is 405", async () => {
    expect((await get(h, "/api/v1/nope")).status).toBe(404);
    expect((await get(h, CHECK)).status).toBe(405);
  });
});

describe("API-key authentication", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant(h);
  });

  it("unknown, malformed and missing keys are one 401", async () => {
    for (const key of [null, "sk_proj_short", `sk_proj_${"a".repeat(64)}`, `SK_PROJ_${"a".repeat(64)}`]) {
      const r = await post(h, CHECK, checkBody(), key);
      expect(r.status).toBe(401);
      expect(r.text).toBe(INVALID_KEY);
    }
    const wrongScheme = await post(h, CHECK, checkBody(), null, {
      headers: { authorization: `Basic ${t.key}` },
    });
    expect(wrongScheme.text).toBe(INVALID_KEY);
  });

  it("a read-only key is refused on every write endpoint with the exact SDK body", async () => {
    for (const [path, body] of [
      [CHECK, checkBody()],
      [CONFIRM, {}],
      [INGEST, []],
      [UNTRACKED, []],
      [breakerPath(t.projectId), {}],
    ] as const) {
      const r = await post(h, path, body, t.readOnlyKey);
      expect(r.status, path).toBe(403);
      expect(r.text).toBe(READ_ONLY);
    }
  });

  it("an expired key is a 401", async () => {
    const { createApiKey } = await import("@breakwater/core");
    const expired = await createApiKey(h.sys, {
      projectId: t.projectId,
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await post(h, CHECK, checkBody(), expired.apiKey)).text).toBe(INVALID_KEY);
  });

  it("a revoked key stops working within a second, although it was cached", async () => {
    const { createApiKey } = await import("@breakwater/core");
    const k = await createApiKey(h.sys, { projectId: t.projectId });
    expect((await post(h, CHECK, checkBody(), k.apiKey)).status).toBe(200);
    await revokeApiKey(h.sys, { keyId: k.key.id });
    const elapsed = await within(
      1000,
      async () => (await post(h, CHECK, checkBody(), k.apiKey)).status === 401,
    );
    expect(elapsed).toBeLessThan(1000);
  });

  it("records last_used_at off the hot path", async () => {
    const before = await h.db.apiKey.findUniqueOrThrow({ where: { id: t.keyId } });
    expect(before.lastUsedAt).toBeNull();
    await post(h, CHECK, checkBody(), t.key);
    // The request itself never writes it; the batched flush (every 5 s) does.
    await within(8000, async () => {
      const row = await h.db.apiKey.findUniqueOrThrow({ where: { id: t.keyId } });
      return row.lastUsedAt !== null;
    });
  }, 15_000);
});

describe("budget check answers", () => {
  it("allow with every opt-in: exact key set, float amounts, hints, directive", async () => {
    const t = await createTenant(h, { plan: "team" });
    const r = await post(
      h,
      CHECK,
      checkBody({ fallback_providers: ["anthropic"], fallback_models: ["claude-sonnet-5"] }),
      t.key,
    );
    expect(r.status).toBe(200);
    const body = r.json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    expect(body.allowed).toBe(true);
    expect(body.project_id).toBe(t.projectId);
    expect(body.reservation_id).toMatch(/^res_/);
    expect(body.failover_directive).toEqual({ version: "1", failover_tuning_allowed: true });
    expect(r.text).toContain('"budget_limit":100.0');
    const hints = body.price_hints as Record<string, number>;
    expect(hints.anthropic).toBe(1);
    expect(hints.openai).toBeGreaterThan(1);
  });

  it("legacy request (no opt-in): explicit nulls for the five optional keys", async () => {
    const t = await createTenant(h);
    const r = await post(
      h,
      CHECK,
      { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai" },
      t.key,
    );
    const body = r.json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
      "run_control",
    ]);
    expect(body.denied_by_period).toBeNull();
    expect(body.price_hints).toBeNull();
    expect(body.failover_directive).toBeNull();
    expect(body.run_control).toBeNull();
  });

  it("price_hints_version alone keeps the legacy nulls; run_directive_version alone has no failover_directive key", async () => {
    const t = await createTenant(h);
    const hintsOnly = (
      await post(
        h,
        CHECK,
        { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai", price_hints_version: "1" },
        t.key,
      )
    ).json() as Record<string, unknown>;
    expect(hintsOnly.failover_directive).toBeNull();
    expect(hintsOnly.price_hints).toEqual({ openai: 1 });
    const runOnly = (
      await post(
        h,
        CHECK,
        { estimated_input_tokens: 10, model: "gpt-5.5", provider: "openai", run_directive_version: "1" },
        t.key,
      )
    ).json() as Record<string, unknown>;
    expect(keys(runOnly)).toEqual([
      "allowed",
      "remaining_budget",
      "reservation_id",
      "mode",
      "budget_limit",
      "current_usage",
      "project_id",
    ]);
  });

  it("hard deny: no reservation_id key, denied_by_period set, mode hard_deny", async () => {
    const t = await createTenant(h, { mode: "hard_deny", limits: { monthly: 0.000001 } });
    const body = (await post(h, CHECK, checkBody(), t.key)).json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    expect(body).toMatchObject({ allowed: false, mode: "hard_deny", denied_by_period: "monthly" });
    const legacy = (
      await post(h, CHECK, { estimated_input_tokens: 1000, model: "gpt-5.5", provider: "openai" }, t.key)
    ).json() as Record<string, unknown>;
    expect(legacy.reservation_id).toBeNull();
    expect(legacy.denied_by_period).toBe("monthly");
  });

  it("alert-only deny: allowed false, mode alert_only", async () => {
    const t = await createTenant(h, { mode: "alert_only", limits: { daily: 0.000001 } });
    const body = (await post(h, CHECK, checkBody(), t.key)).json() as Record<string, unknown>;
    expect(body).toMatchObject({ allowed: false, mode: "alert_only", denied_by_period: "daily" });
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
  });

  it("stopped run: run_stopped, hard_deny on an alert_only project, remaining 0, run_control only with the opt-in", async () => {
    const t = await createTenant(h, { mode: "alert_only" });
    const runId = `stopped-${newId("res")}`;
    await h.db.agentRun.create({
      data: { projectId: t.projectId, agentRunId: runId, stoppedAt: new Date(), stopReason: "manual_kill" },
    });
    const r = await post(h, CHECK, checkBody({ agent_run_id: runId }), t.key);
    const body = r.json() as Record<string, unknown>;
    expect(keys(body)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
      "run_control",
    ]);
    expect(body).toMatchObject({
      allowed: false,
      mode: "hard_deny",
      denied_by_period: "run_stopped",
      remaining_budget: 0,
    });
    expect(r.text).toContain('"remaining_budget":0.0');
    expect(body.run_control).toEqual({
      version: "1",
      action: "terminate",
      agent_run_id: runId,
      reason: "manual_kill",
    });
    const noOptIn = (
      await post(h, CHECK, checkBody({ agent_run_id: runId, run_directive_version: undefined }), t.key)
    ).json();
    expect(keys(noOptIn)).not.toContain("run_control");
    const other = (
      await post(h, CHECK, checkBody({ agent_run_id: `${runId}-other` }), t.key)
    ).json() as Record<string, unknown>;
    expect(other.allowed).toBe(true);
    expect(keys(other)).not.toContain("run_control");
  });

  it("tag rule: only checks whose tags match are denied with 'tag'", async () => {
    const t = await createTenant(h, { mode: "hard_deny" });
    await h.db.tagRule.create({
      data: {
        id: newId("tagr"),
        projectId: t.projectId,
        name: "acme",
        selector: { customer: "acme" },
        period: "monthly",
        limitUsd: "0.000001",
      },
    });
    const denied = (await post(h, CHECK, checkBody({ tags: { customer: "acme" } }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(denied).toMatchObject({ allowed: false, denied_by_period: "tag" });
    expect(keys(denied)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    const other = (await post(h, CHECK, checkBody({ tags: { customer: "globex" } }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(other.allowed).toBe(true);
  });

  it("run spend cap: agent_run deny scoped to that run", async () => {
    const t = await createTenant(h, { mode: "hard_deny" });
    await h.db.project.update({ where: { id: t.projectId }, data: { runSpendCapUsd: "0.05" } });
    // A first check builds the counters; an ingested $1 call then burns the run's cap.
    expect(
      ((await post(h, CHECK, checkBody({ agent_run_id: "runaway" }), t.key)).json() as { allowed: boolean })
        .allowed,
    ).toBe(true);
    const burn = event({
      agent_run_id: "runaway",
      input_tokens: 200_000,
      output_tokens: 0,
      token_details: { input_tokens: 200_000 },
    });
    expect((await post(h, INGEST, [burn], t.key)).status).toBe(202);
    const denied = (await post(h, CHECK, checkBody({ agent_run_id: "runaway" }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(denied).toMatchObject({ allowed: false, mode: "hard_deny", denied_by_period: "agent_run" });
    expect(keys(denied)).toEqual([
      "allowed",
      "remaining_budget",
      "mode",
      "budget_limit",
      "current_usage",
      "denied_by_period",
      "project_id",
      "price_hints",
      "failover_directive",
    ]);
    const otherRun = (await post(h, CHECK, checkBody({ agent_run_id: "fresh-run" }), t.key)).json() as Record<
      string,
      unknown
    >;
    expect(otherRun.allowed).toBe(true);
  });

  it("an unknown model is allowed without a reservation (never a 4xx)", async () => {
    const t = await createTenant(h);
    const r = await post(h, CHECK, checkBody({ model: "no-such-model-anywhere" }), t.key);
    expect(r.status).toBe(200);
    const body = r.json() as Record<string, unknown>;
    expect(body.allowed).toBe(true);
    expect(keys(body)).not.toContain("reservation_id");
    expect(body.price_hints).toEqual({});
  });

  it("price hints: local lane, unpriced model, same-provider fallback, long context", async () => {
    const t = await createTenant(h);
    const hints = async (extra: Record<string, unknown>) =>
      ((await post(h, CHECK, checkBody(extra), t.key)).json() as { price_hints: Record<string, number> })
        .price_hints;
    expect(await hints({ fallback_providers: ["ollama"], fallback_models: ["llama3:8b"] })).toEqual({
      openai: 1,
      ollama: 0,
    });
    expect(await hints({ fallback_providers: ["anthropic"], fallback_models: ["no-such-claude"] })).toEqual({
      openai: 1,
    });
    // The primary provider's number comes from the primary model: a cheaper same-provider fallback changes nothing.
    expect(
      await hints({
        fallback_providers: ["openai", "anthropic"],
        fallback_models: ["gpt-4o-mini", "claude-sonnet-5"],
      }),
    ).toEqual(await hints({ fallback_providers: ["anthropic"], fallback_models: ["claude-sonnet-5"] }));
    const short = await hints({ fallback_providers: ["anthropic"], fallback_models: ["claude-sonnet-5"] });
    const long = await hints({
      estimated_input_tokens: 300_000,
      fallback_providers: ["anthropic"],
      fallback_models: ["claude-sonnet-5"],
    });
    expect(long.openai!).toBeGreaterThan(short.openai!);
  });

  it("the failover directive flips within a second of a plan override", async () => {
    const t = await createTenant(h, { plan: "free" });
    const allowed = async () =>
      (
        (await post(h, CHECK, checkBody(), t.key)).json() as {
          failover_directive: { failover_tuning_allowed: boolean };
        }
      ).failover_directive.failover_tuning_allowed;
    expect(await allowed()).toBe(false);
    await h.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: t.organizationId,
        projectId: t.projectId,
        featureKey: "failover_tuning",
        value: true,
        reason: "trial",
      },
    });
    await invalidateEntitlements({ config: h.config }, { projectId: t.projectId });
    expect(await within(1000, allowed)).toBeLessThan(1000);
  });

  it("the failover directive flips within a second of a plan change", async () => {
    const t = await createTenant(h, { plan: "free" });
    const allowed = async () =>
      (
        (await post(h, CHECK, checkBody(), t.key)).json() as {
          failover_directive: { failover_tuning_allowed: boolean };
        }
      ).failover_directive.failover_tuning_allowed;
    expect(await allowed()).toBe(false);
    const team = await h.db.plan.findUniqueOrThrow({ where: { slug: "team" } });
    await h.db.subscription.update({
      where: { organizationId: t.organizationId },
      data: { planId: team.id },
    });
    await invalidateEntitlements({ config: h.config }, { organizationId: t.organizationId });
    expect(await within(1000, allowed)).toBeLessThan(1000);
  });

  it("validation problems are FastAPI 422s; invalid JSON is json_invalid", async () => {
    const t = await createTenant(h);
    const bad = await post(h, CHECK, checkBody({ surprise: true }), t.key);
    expect(bad.status).toBe(422);
    expect(bad.json()).toEqual({
      detail: [{ loc: ["body", "surprise"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }],
    });
    const invalid = await post(h, CHECK, "{not json", t.key, { raw: true });
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toEqual({
      detail: [{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }],
    });
    const huge = await post(h, CHECK, "1e400", t.key, { raw: true });
    expect(huge.status).toBe(422);
  });
});

describe("confirm", () => {
  it("settles once; replays and new call ids on a settled reservation are 204; bad ids are 422/404", async () => {
    const t = await createTenant(h);
    const check = (await post(h, CHECK, checkBody(), t.key)).json() as { reservation_id: string };
    const confirm = {
      reservation_id: check.reservation_id,
      model: "gpt-5.5",
      provider: "openai",
      modality: "text",
      is_provider_fallback: false,
      call_id: crypto.randomUUID(),
      token_details: { input_tokens: 1000, output_tokens: 500 },
    };
    const first = await post(h, CONFIRM, confirm, t.key);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    expect((await post(h, CONFIRM, confirm, t.key)).status).toBe(204);
    expect((await post(h, CONFIRM, { ...confirm, call_id: crypto.randomUUID() }, t.key)).status).toBe(204);
    expect((await post(h, CONFIRM, { ...confirm, lease_id: "lse_contract" }, t.key)).status).toBe(422);
    const { reservation_id: _r, ...neither } = confirm;
    expect((await post(h, CONFIRM, { ...neither, call_id: crypto.randomUUID() }, t.key)).status).toBe(422);
    const unknown = await post(
      h,
      CONFIRM,
      { ...confirm, reservation_id: "res_contract_unknown", call_id: crypto.randomUUID() },
      t.key,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('{"detail":"Reservation not found or expired"}');
  });
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

  it("envelope errors: not a list → 422, more than 1000 → 400, a malformed event → 422 and nothing stored", async () => {
    const t = await createTenant(h);
    expect((await post(h, INGEST, { events: [] }, t.key)).status).toBe(422);
    const big = await post(
      h,
      INGEST,
      Array.from({ length: 1001 }, () => event()),
      t.key,
    );
    expect(big.status).toBe(400);
    const bad = await post(h, INGEST, [event(), event({ call_id: "NOT-A-UUID" })], t.key);
    expect(bad.status).toBe(422);
    expect((bad.json() as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(["body", 1, "call_id"]);
    expect(await h.db.metadataEvent.count({ where: { projectId: t.projectId } })).toBe(0);
  });
});

describe("breaker reports", () => {
  it("accepts the key's project, hides other tenants' projects, keeps the newest report", async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const report = (at: string, state: string) => ({
      provider: "openai",
      state,
      failure_count: 3,
      success_count: 0,
      reported_at: at,
      sdk_instance_id: "inst-1",
    });
    const ok = await post(h, breakerPath(t.projectId), report("2026-11-30T10:00:05.000Z", "open"), t.key);
    expect(ok.status).toBe(202);
    expect(ok.text).toBe('{"accepted":true}');
    const late = await post(h, breakerPath(t.projectId), report("2026-11-30T10:00:01.000Z", "closed"), t.key);
    expect(late.status).toBe(202);
    const snap = await h.db.breakerSnapshot.findUniqueOrThrow({
      where: {
        projectId_provider_sdkInstanceId: {
          projectId: t.projectId,
          provider: "openai",
          sdkInstanceId: "inst-1",
        },
      },
    });
    expect(snap.state).toBe("open");

    const foreign = await post(
      h,
      breakerPath(other.projectId),
      report("2026-11-30T10:00:05.000Z", "open"),
      t.key,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe('{"detail":"Project not found"}');
    expect(await h.db.breakerSnapshot.count({ where: { projectId: other.projectId } })).toBe(0);
    expect(
      (
        await post(
          h,
          breakerPath("proj_000000000000000000000000"),
          report("2026-11-30T10:00:05Z", "open"),
          t.key,
        )
      ).status,
    ).toBe(404);
  });
});

describe("untracked surfaces", () => {
  it("stores reports once per report_id and enforces the batch rules", async () => {
    const t = await createTenant(h);
    const a = surfaceReport();
    const b = surfaceReport();
    const r = await post(h, UNTRACKED, [a, b], t.key);
    expect(r.status).toBe(202);
    expect(r.text).toBe('{"accepted":2}');
    expect((await post(h, UNTRACKED, [a], t.key)).text).toBe('{"accepted":1}');
    expect(await h.db.untrackedSurfaceReport.count({ where: { projectId: t.projectId } })).toBe(2);
    expect(
      (
        await post(
          h,
          UNTRACKED,
          Array.from({ length: 101 }, () => surfaceReport()),
          t.key,
        )
      ).status,
    ).toBe(400);
    expect((await post(h, UNTRACKED, [a, { ...a, report_id: crypto.randomUUID() }], t.key)).status).toBe(400);
    expect(
      (
        await post(
          h,
          UNTRACKED,
          [{ ...a, report_id: crypto.randomUUID(), last_seen_at: "2026-08-31T00:00:00Z" }],
          t.key,
        )
      ).status,
    ).toBe(422);
    const tooBig = await post(h, UNTRACKED, `[${" ".repeat(300 * 1024)}]`, t.key, { raw: true });
    expect(tooBig.status).toBe(413);
    expect(await h.db.untrackedSurfaceReport.count({ where: { projectId: t.projectId } })).toBe(2);
  });
});

describe("admission limit", () => {
  it("answers 429 with Retry-After past the project's per-second rate", async () => {
    const t = await createTenant(h);
    await h.db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: t.organizationId,
        projectId: t.projectId,
        featureKey: "admission_rate_per_second",
        value: 3,
        reason: "test",
      },
    });
    const results = await Promise.all(Array.from({ length: 12 }, () => post(h, CHECK, checkBody(), t.key)));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.text).toBe('{"detail":"Rate limit exceeded","retry_after":1}');
  });
});

describe("backends down", () => {
  it("Postgres unreachable on a cold cache: 503s (never 500s) and readiness says which backend", async () => {
    const down = await startHarness({ DATABASE_URL: "postgresql://postgres@127.0.0.1:3498/breakwater_test" });
    try {
      const check = await post(down, CHECK, checkBody(), `sk_proj_${"b".repeat(64)}`);
      expect(check.status).toBe(503);
      expect(check.text).toBe('{"detail":"Budget backend temporarily unavailable; retry"}');
      const ingest = await post(down, INGEST, [event()], `sk_proj_${"b".repeat(64)}`);
      expect(ingest.status).toBe(503);
      const ready = await get(down, "/health/ready");
      expect(ready.status).toBe(503);
      expect(ready.json()).toEqual({ status: "unavailable", postgres: "unavailable", redis: "ok" });
    } finally {
      await down.close().catch(() => undefined);
    }
  });

  it("the check answers 503 fast with the documented body", async () => {
    const t = await createTenant(h);
    const down = await startHarness({ REDIS_URL: "redis://127.0.0.1:3499/1" });
    try {
      const started = Date.now();
      const r = await post(down, CHECK, checkBody(), t.key);
      expect(r.status).toBe(503);
      expect(r.text).toBe('{"detail":"Budget backend temporarily unavailable; retry"}');
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await down.close();
    }
  });
});

describe("Next.js mount", () => {
  it("the fetch-style handlers give the same answers as the lean server", async () => {
    const t = await createTenant(h);
    const req = new Request("http://localhost/api/v1/budgets/check", {
      method: "POST",
      headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      body: JSON.stringify(checkBody()),
    });
    const res = await h.runtime.handlers.fetch.check(req);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(keys(await res.json())).toContain("failover_directive");
    const health = await h.runtime.handlers.fetch.dispatch(new Request("http://localhost/health"));
    expect(await health.text()).toBe('{"status":"ok"}');
  });
});
