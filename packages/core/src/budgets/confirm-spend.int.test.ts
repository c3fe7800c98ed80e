import type { Command } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { budgetTestEnv, callId, DOLLAR_MODEL, deleteProjectKeys, makeProject } from "../testing/budgets";
import { createBudgetRedis } from "./budget-redis";
import { budgetRuntimeCache } from "./budget-runtime";
import { checkBudget } from "./check-budget";
import { confirmSpend } from "./confirm-spend";
import { INGEST_SCRIPT } from "./lua";
import { type IngestedSpendItem, recordIngestedSpend } from "./record-ingested-spend";
import { budgetKeys } from "./redis-keys";
import { currentWindows } from "./windows";

const env = budgetTestEnv();
const projects: string[] = [];
afterAll(async () => {
  for (const p of projects) await deleteProjectKeys(env.redis, p);
  await env.close();
});

async function project(opts: Parameters<typeof makeProject>[1] = {}) {
  const p = await makeProject(env, opts);
  projects.push(p.projectId);
  return p.projectId;
}

async function reserve(projectId: string, tokens = 1, extra: Record<string, unknown> = {}) {
  const r = await checkBudget(env.deps, {
    projectId,
    ...DOLLAR_MODEL,
    estimatedInputTokens: tokens,
    fallbackProviders: [],
    fallbackModels: [],
    modality: "text",
    uncountedCalls: 0,
    uncountedTokens: 0,
    ...extra,
  });
  expect(r.allowed).toBe(true);
  return r.reservationId!;
}

function confirm(
  projectId: string,
  reservationId: string,
  call: string | null,
  input: number,
  output: number,
) {
  return confirmSpend(env.deps, {
    projectId,
    reservationId,
    callId: call,
    ...DOLLAR_MODEL,
    modality: "text",
    tokenDetails: { ...ZERO_TOKENS, input_tokens: input, output_tokens: output },
  });
}

/** Settled usage (nano-dollars) of the current window of `period`, and the project's held total. */
async function state(projectId: string) {
  const k = budgetKeys(projectId);
  const w = currentWindows(new Date());
  const [d, m, held] = await Promise.all([
    env.redis.get(k.usage(w.daily.key)),
    env.redis.get(k.usage(w.monthly.key)),
    env.redis.hget(k.heldSums, "p"),
  ]);
  const usd = (v: string | null) => Number(v ?? 0) / 1e9;
  return { daily: usd(d), monthly: usd(m), held: usd(held) };
}

function event(
  call: string,
  costUsd: number | null,
  extra: Partial<IngestedSpendItem> = {},
): IngestedSpendItem {
  return {
    callId: call,
    attemptIndex: 0,
    timestamp: new Date(),
    costNanos: costUsd === null ? null : BigInt(Math.round(costUsd * 1e9)),
    agentRunId: "_auto-sdk-1-2026-11-30",
    tags: null,
    status: "success",
    ...extra,
  };
}

describe("confirmSpend", () => {
  it("replaces the estimate by the actual cost priced from token_details", async () => {
    const p = await project();
    const res = await reserve(p, 1); // holds $3
    expect(await state(p)).toEqual({ daily: 0, monthly: 0, held: 3 });
    expect(await confirm(p, res, callId(), 2, 1)).toEqual({ outcome: "settled" }); // $2 + $2
    expect(await state(p)).toEqual({ daily: 4, monthly: 4, held: 0 });
  });

  it("is idempotent: a replayed call_id or the same reservation with a new call_id settles nothing", async () => {
    const p = await project();
    const res = await reserve(p);
    const call = callId();
    expect((await confirm(p, res, call, 1, 0)).outcome).toBe("settled");
    expect((await confirm(p, res, call, 1, 0)).outcome).toBe("duplicate");
    expect((await confirm(p, res, callId(), 50, 50)).outcome).toBe("duplicate");
    expect((await confirm(p, res, null, 50, 50)).outcome).toBe("duplicate");
    expect(await state(p)).toEqual({ daily: 1, monthly: 1, held: 0 });
  });

  it("answers NOT_FOUND for an unknown reservation, another project's, or a lease", async () => {
    const p = await project();
    const other = await project();
    const res = await reserve(other);
    const notFound = { code: "NOT_FOUND", message: "Reservation not found or expired" };
    await expect(confirm(p, "res_contract_unknown", callId(), 1, 1)).rejects.toMatchObject(notFound);
    await expect(confirm(p, res, callId(), 1, 1)).rejects.toMatchObject(notFound);
    await expect(
      confirmSpend(env.deps, {
        projectId: p,
        leaseId: "lse_contract",
        callId: callId(),
        ...DOLLAR_MODEL,
        modality: "text",
        tokenDetails: ZERO_TOKENS,
      }),
    ).rejects.toMatchObject(notFound);
    // The other project's reservation is untouched and still settles there.
    expect((await confirm(other, res, callId(), 1, 0)).outcome).toBe("settled");
  });

  it("settles an unpriced served model as unpriced: the hold is released, no dollars move", async () => {
    const p = await project();
    const res = await reserve(p);
    const r = await confirmSpend(env.deps, {
      projectId: p,
      reservationId: res,
      callId: callId(),
      provider: "openai",
      model: "some-unknown-fallback",
      modality: "text",
      tokenDetails: { ...ZERO_TOKENS, input_tokens: 100 },
    });
    expect(r.outcome).toBe("settled");
    expect(await state(p)).toEqual({ daily: 0, monthly: 0, held: 0 });
  });

  it("prices Bedrock service tiers server-side (flex 0.5×)", async () => {
    const p = await project();
    const res = await reserve(p);
    await confirmSpend(env.deps, {
      projectId: p,
      reservationId: res,
      callId: callId(),
      provider: "bedrock",
      model: "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
      modality: "text",
      serviceTier: "flex",
      tokenDetails: { ...ZERO_TOKENS, input_tokens: 1_000_000 },
    });
    const { daily } = await state(p);
    const standard = await (async () => {
      const q = await project();
      const r2 = await reserve(q);
      await confirmSpend(env.deps, {
        projectId: q,
        reservationId: r2,
        callId: callId(),
        provider: "bedrock",
        model: "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
        modality: "text",
        tokenDetails: { ...ZERO_TOKENS, input_tokens: 1_000_000 },
      });
      return (await state(q)).daily;
    })();
    expect(standard).toBeGreaterThan(0);
    expect(daily).toBeCloseTo(standard / 2, 9);
  });
});

describe("recordIngestedSpend with confirms", () => {
  it("replaces a confirm's provisional amount by the ingested actual (never counted twice)", async () => {
    const p = await project();
    const res = await reserve(p);
    const call = callId();
    await confirm(p, res, call, 2, 1); // provisional $4
    expect((await state(p)).daily).toBe(4);
    await recordIngestedSpend(env.deps, p, [event(call, 4.5)]);
    expect((await state(p)).daily).toBe(4.5);
    // The same event again (a retried batch) moves nothing.
    await recordIngestedSpend(env.deps, p, [event(call, 4.5)]);
    expect((await state(p)).daily).toBe(4.5);
    // Another attempt of the same call is a separate event and adds its own cost.
    await recordIngestedSpend(env.deps, p, [event(call, 1, { attemptIndex: 1 })]);
    expect(await state(p)).toEqual({ daily: 5.5, monthly: 5.5, held: 0 });
  });

  it("does not add a confirm's amount when the call's event landed first", async () => {
    const p = await project();
    const res = await reserve(p);
    const call = callId();
    await recordIngestedSpend(env.deps, p, [event(call, 2)]);
    expect(await state(p)).toEqual({ daily: 2, monthly: 2, held: 3 });
    expect((await confirm(p, res, call, 2, 1)).outcome).toBe("settled");
    expect(await state(p)).toEqual({ daily: 2, monthly: 2, held: 0 });
  });

  it("adds nothing for denied events and no dollars for unpriced ones; old windows stay untouched", async () => {
    const p = await project();
    await reserve(p); // builds the counters
    const yesterday = new Date(Date.now() - 86_400_000 - 1000);
    await recordIngestedSpend(env.deps, p, [
      event(callId(), 7, { status: "budget_denied" }),
      event(callId(), null),
      event(callId(), 1.25),
      event(callId(), 10, { timestamp: yesterday }),
    ]);
    const s = await state(p);
    expect(s.daily).toBe(1.25);
    // Yesterday's $10 belongs to this month unless today is the 1st.
    const sameMonth = yesterday.getUTCMonth() === new Date().getUTCMonth();
    expect(s.monthly).toBe(sameMonth ? 11.25 : 1.25);
  });

  it("moves run and tag-rule counters, so scoped rules see ingested spend", async () => {
    const p = await project({
      mode: "hard_deny",
      limits: { monthly: 1000 },
      runCapUsd: 10,
      tagRules: [{ selector: { team: "search" }, period: "monthly", limitUsd: 10 }],
    });
    await reserve(p);
    await recordIngestedSpend(env.deps, p, [
      event(callId(), 9, { agentRunId: "run-x" }),
      event(callId(), 9, { tags: { team: "search", env: "prod" } }),
    ]);
    const check = (extra: Record<string, unknown>) =>
      checkBudget(env.deps, {
        projectId: p,
        ...DOLLAR_MODEL,
        estimatedInputTokens: 0,
        fallbackProviders: [],
        fallbackModels: [],
        modality: "text",
        uncountedCalls: 0,
        uncountedTokens: 0,
        ...extra,
      });
    expect(await check({ agentRunId: "run-x" })).toMatchObject({
      allowed: false,
      deniedByPeriod: "agent_run",
      currentUsage: 9,
    });
    expect(await check({ tags: { team: "search" } })).toMatchObject({
      allowed: false,
      deniedByPeriod: "tag",
      currentUsage: 9,
    });
    expect((await check({ agentRunId: "run-y", tags: { team: "ads" } })).allowed).toBe(true);
  });

  it("moves each counter by a batch's exact sum: attempts, repeats and provisional amounts in one call", async () => {
    const p = await project({
      mode: "hard_deny",
      limits: { daily: 100_000_000, monthly: 100_000_000 },
      tagRules: [{ selector: { team: "search" }, period: "daily", limitUsd: 100_000_000 }],
    });
    const res = await reserve(p);
    const confirmed = callId();
    await confirm(p, res, confirmed, 2, 1); // provisional $4
    const other = callId();
    const tagged = { tags: { team: "search" } };
    await recordIngestedSpend(env.deps, p, [
      event(confirmed, 4.5, { agentRunId: "run-b" }),
      event(confirmed, 1, { attemptIndex: 1, agentRunId: "run-b" }),
      event(other, 0.25, { agentRunId: "run-b", ...tagged }),
      event(other, 0.25, { agentRunId: "run-b", ...tagged }), // the same event twice: counted once
    ]);
    expect(await state(p)).toEqual({ daily: 5.75, monthly: 5.75, held: 0 });
    const k = budgetKeys(p);
    expect(await env.redis.get(k.run("run-b"))).toBe("5750000000");
    expect(await env.redis.hlen(k.provisional)).toBe(0);
    const [rule] = (await budgetRuntimeCache(env.deps).get(p)).tagRules;
    const tagCounter = () => env.redis.get(k.tag(rule!.ref, currentWindows(new Date()).daily.key));
    expect(await tagCounter()).toBe("250000000");
    // Amounts whose sum a double cannot hold exactly are still added to the nano-dollar.
    const big = 4_503_599_627_370_497n; // 2^52 + 1 nano-dollars
    await recordIngestedSpend(env.deps, p, [
      event(callId(), null, { costNanos: big }),
      event(callId(), null, { costNanos: big }),
      event(callId(), null, { costNanos: 1n, ...tagged }),
    ]);
    const w = currentWindows(new Date());
    expect(BigInt((await env.redis.get(k.usage(w.daily.key)))!)).toBe(5_750_000_000n + 2n * big + 1n);
    expect(await tagCounter()).toBe("250000001");
  });

  it("moves the counters of one turn's batches in one script call per 250 events", async () => {
    const p = await project();
    await reserve(p); // builds the counters
    // Counts the script calls the real client sends.
    const redis = env.redis as unknown as { sendCommand: (command: Command, ...rest: unknown[]) => unknown };
    const send = redis.sendCommand;
    let ingestCalls = 0;
    redis.sendCommand = function (this: unknown, command: Command, ...rest: unknown[]) {
      if (command.name === "evalsha" && command.args[0] === INGEST_SCRIPT.sha) ingestCalls++;
      return send.call(this, command, ...rest);
    };
    try {
      const three = [0.5, 0.25, 1].map((usd) => recordIngestedSpend(env.deps, p, [event(callId(), usd)]));
      await Promise.all(three);
      expect(ingestCalls).toBe(1);
      expect((await state(p)).daily).toBe(1.75);

      // Six batches of 50 in one turn: 250 events in one call, the last 50 in a second.
      ingestCalls = 0;
      const six = Array.from({ length: 6 }, () =>
        recordIngestedSpend(
          env.deps,
          p,
          Array.from({ length: 50 }, () => event(callId(), 0.01)),
        ),
      );
      await Promise.all(six);
      expect(ingestCalls).toBe(2);
      expect((await state(p)).daily).toBeCloseTo(4.75, 9);

      // A batch of the next turn is its own call.
      ingestCalls = 0;
      await recordIngestedSpend(env.deps, p, [event(callId(), 1)]);
      await recordIngestedSpend(env.deps, p, [event(callId(), 1)]);
      expect(ingestCalls).toBe(2);
      expect((await state(p)).daily).toBeCloseTo(6.75, 9);
    } finally {
      redis.sendCommand = send;
    }
  });

  it("rejects every batch of a group when Redis cannot take it (the events stay durable)", async () => {
    const dead = createBudgetRedis("redis://127.0.0.1:3599/1");
    try {
      const p = await project();
      const deps = { ...env.deps, redis: dead };
      const results = await Promise.allSettled([
        recordIngestedSpend(deps, p, [event(callId(), 1)]),
        recordIngestedSpend(deps, p, [event(callId(), 2)]),
      ]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: "BUDGET_UNAVAILABLE" });
    } finally {
      dead.disconnect();
    }
  });

  it("is a no-op while the project's counters are not in Redis (the rebuild reads the events)", async () => {
    const p = await project();
    await recordIngestedSpend(env.deps, p, [event(callId(), 5)]);
    expect(await env.redis.exists(budgetKeys(p).built)).toBe(0);
    expect(await state(p)).toEqual({ daily: 0, monthly: 0, held: 0 });
  });
});

const ZERO_TOKENS = {
  input_tokens: 0,
  output_tokens: 0,
  cached_input_tokens: 0,
  cache_creation_5m_tokens: 0,
  cache_creation_1h_tokens: 0,
  reasoning_tokens: 0,
  audio_input_tokens: 0,
  audio_output_tokens: 0,
  image_input_tokens: 0,
  image_output_tokens: 0,
  accepted_prediction_tokens: 0,
  rejected_prediction_tokens: 0,
  tool_use_input_tokens: 0,
};
