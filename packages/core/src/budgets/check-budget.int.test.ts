import { afterAll, describe, expect, it } from "vitest";
import { budgetTestEnv, callId, DOLLAR_MODEL, deleteProjectKeys, makeProject } from "../testing/budgets";
import { checkBudget } from "./check-budget";
import { confirmSpend } from "./confirm-spend";
import { budgetKeys } from "./redis-keys";
import { currentWindows } from "./windows";

const env = budgetTestEnv();
const projects: string[] = [];
afterAll(async () => {
  for (const p of projects) await deleteProjectKeys(env.redis, p);
  await env.close();
});

async function project(opts: Parameters<typeof makeProject>[1]) {
  const p = await makeProject(env, opts);
  projects.push(p.projectId);
  return p.projectId;
}

/** A check of the $1/$2 test model: reserves tokens + 2 dollars. */
function check(projectId: string, tokens: number, extra: Record<string, unknown> = {}) {
  return checkBudget(env.deps, {
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
}

describe("checkBudget verdicts", () => {
  it("allows within every period and reserves the estimate; amounts describe the least-remaining period", async () => {
    const p = await project({ limits: { daily: 10, monthly: 100 } });
    const r = await check(p, 1);
    expect(r).toMatchObject({
      allowed: true,
      mode: "alert_only",
      budgetLimit: 10,
      currentUsage: 3,
      remainingBudget: 7,
      deniedByPeriod: null,
      runControl: null,
    });
    expect(r.reservationId).toMatch(/^res_[0-9a-f]{24}$/);
    const held = await env.redis.hget(budgetKeys(p).heldSums, "p");
    expect(held).toBe("3000000000");
  });

  it("denies when any one period would go over, naming that period (multi-period)", async () => {
    const p = await project({ limits: { daily: 100, weekly: 5, monthly: 100 } });
    expect((await check(p, 1)).allowed).toBe(true); // holds 3 of weekly 5
    const r = await check(p, 1); // 3 + 3 > 5
    expect(r).toMatchObject({
      allowed: false,
      mode: "alert_only",
      deniedByPeriod: "weekly",
      budgetLimit: 5,
      currentUsage: 3,
      remainingBudget: 2,
      reservationId: null,
      runControl: null,
    });
    // A smaller call still fits: usage + reserved + estimate ≤ limit is the rule.
    expect((await check(p, 0)).allowed).toBe(true); // 3 + 2 = 5 ≤ 5
  });

  it("names the most-exceeded period when several deny", async () => {
    const p = await project({ limits: { daily: 4, weekly: 50, monthly: 3 } });
    const r = await check(p, 3); // estimate 5: daily −1, monthly −2
    expect(r).toMatchObject({
      allowed: false,
      deniedByPeriod: "monthly",
      budgetLimit: 3,
      currentUsage: 0,
      remainingBudget: 3,
    });
  });

  it("answers hard_deny projects with mode hard_deny and alert_only projects with alert_only", async () => {
    const hard = await project({ mode: "hard_deny", limits: { daily: 1 } });
    const alert = await project({ mode: "alert_only", limits: { daily: 1 } });
    expect(await check(hard, 1)).toMatchObject({
      allowed: false,
      mode: "hard_deny",
      deniedByPeriod: "daily",
    });
    expect(await check(alert, 1)).toMatchObject({
      allowed: false,
      mode: "alert_only",
      deniedByPeriod: "daily",
    });
  });

  it("allows an unpriced model without a reservation, unless the project is already over a cap", async () => {
    const p = await project({ mode: "hard_deny", limits: { daily: 5 } });
    const unpriced = { provider: "openai", model: "no-such-model-anywhere" };
    const first = await check(p, 1000, unpriced);
    expect(first).toMatchObject({
      allowed: true,
      reservationId: null,
      deniedByPeriod: null,
      currentUsage: 0,
    });
    // Spend the budget exactly: still allowed at usage == limit (nothing new is estimated)…
    const res = await check(p, 3); // holds 5
    expect(res.allowed).toBe(true);
    expect(await check(p, 1000, unpriced)).toMatchObject({ allowed: true, reservationId: null });
    // …and denied once usage is past it.
    await confirmSpend(env.deps, {
      projectId: p,
      reservationId: res.reservationId!,
      callId: callId(),
      ...DOLLAR_MODEL,
      modality: "text",
      tokenDetails: tokens(4, 1), // $6 > $5
    });
    expect(await check(p, 1000, unpriced)).toMatchObject({
      allowed: false,
      deniedByPeriod: "daily",
      reservationId: null,
    });
  });

  it("prices a real catalogue model (gpt-5.5: $5/$30 per M) and reserves input + output bound", async () => {
    const p = await project({ mode: "hard_deny", limits: { monthly: 0.05 } });
    const r = await checkBudget(env.deps, {
      projectId: p,
      provider: "openai",
      model: "gpt-5.5",
      estimatedInputTokens: 1000,
      fallbackProviders: [],
      fallbackModels: [],
      modality: "text",
      uncountedCalls: 0,
      uncountedTokens: 0,
    });
    // 1000 × $5e-6 + 1 (test output bound) × $30e-6
    expect(r).toMatchObject({ allowed: true, currentUsage: 0.00503, budgetLimit: 0.05 });
  });
});

describe("checkBudget scoped rules", () => {
  it("applies a tag rule only to checks whose tags contain its selector", async () => {
    const p = await project({
      limits: { monthly: 1000 },
      tagRules: [{ selector: { customer: "acme" }, period: "daily", limitUsd: 4 }],
    });
    const acme = { tags: { customer: "acme", env: "prod" } };
    expect(await check(p, 1, acme)).toMatchObject({ allowed: true, deniedByPeriod: null });
    const denied = await check(p, 1, acme);
    expect(denied).toMatchObject({
      allowed: false,
      deniedByPeriod: "tag",
      mode: "alert_only",
      budgetLimit: 4,
      currentUsage: 3,
      remainingBudget: 1,
    });
    expect((await check(p, 1, { tags: { customer: "other" } })).allowed).toBe(true);
    expect((await check(p, 1, { tags: { env: "prod" } })).allowed).toBe(true);
    expect((await check(p, 1)).allowed).toBe(true);
  });

  it("applies the run spend cap only to that run, and only on hard_deny projects", async () => {
    const hard = await project({ mode: "hard_deny", limits: { monthly: 1000 }, runCapUsd: 4 });
    expect((await check(hard, 1, { agentRunId: "run-a" })).allowed).toBe(true);
    expect(await check(hard, 1, { agentRunId: "run-a" })).toMatchObject({
      allowed: false,
      mode: "hard_deny",
      deniedByPeriod: "agent_run",
      budgetLimit: 4,
      currentUsage: 3,
      remainingBudget: 1,
      runControl: null,
    });
    expect((await check(hard, 1, { agentRunId: "run-b" })).allowed).toBe(true);
    expect((await check(hard, 1)).allowed).toBe(true);

    const alert = await project({ mode: "alert_only", limits: { monthly: 1000 }, runCapUsd: 4 });
    await check(alert, 1, { agentRunId: "run-a" });
    expect((await check(alert, 1, { agentRunId: "run-a" })).allowed).toBe(true);
  });

  it("keeps a run id of any characters exact on its way to Redis (multi-byte text in the encoded command)", async () => {
    const p = await project({ mode: "hard_deny", limits: { monthly: 1000 }, runCapUsd: 4 });
    const run = "run-ü-運行-🚀 with spaces|and,commas";
    expect((await check(p, 1, { agentRunId: run })).allowed).toBe(true);
    // The hold is counted under exactly that run: the same id now meets its cap, a sibling does not.
    expect(await check(p, 1, { agentRunId: run })).toMatchObject({
      allowed: false,
      deniedByPeriod: "agent_run",
    });
    expect((await check(p, 1, { agentRunId: `${run}x` })).allowed).toBe(true);
    const held = await env.redis.hget(budgetKeys(p).heldSums, `r:${run}`);
    expect(Number(held)).toBe(3_000_000_000);
  });

  it("counts a confirmed run spend against the run cap before its event is ingested", async () => {
    const p = await project({ mode: "hard_deny", limits: { monthly: 1000 }, runCapUsd: 10 });
    const r = await check(p, 1, { agentRunId: "burner" });
    await confirmSpend(env.deps, {
      projectId: p,
      reservationId: r.reservationId!,
      callId: callId(),
      ...DOLLAR_MODEL,
      modality: "text",
      tokenDetails: tokens(5, 3), // $11 > $10
    });
    expect(await check(p, 0, { agentRunId: "burner" })).toMatchObject({
      allowed: false,
      deniedByPeriod: "agent_run",
    });
    expect((await check(p, 0, { agentRunId: "fresh" })).allowed).toBe(true);
  });
});

describe("checkBudget reservations", () => {
  it("lets a reservation stop counting once its TTL passes", async () => {
    const short = budgetTestEnv({ RESERVATION_TTL_SECONDS: 1 }, env.db);
    // A client of its own, used at once: a cluster one must have connected first.
    await short.ready();
    try {
      const p = await project({ limits: { daily: 5 } });
      const r = await checkBudget(short.deps, {
        projectId: p,
        ...DOLLAR_MODEL,
        estimatedInputTokens: 2,
        fallbackProviders: [],
        fallbackModels: [],
        modality: "text",
        uncountedCalls: 0,
        uncountedTokens: 0,
      });
      expect(r).toMatchObject({ allowed: true, currentUsage: 4 });
      expect((await check(p, 1)).allowed).toBe(false); // 4 held + 3 > 5
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const after = await check(p, 1);
      expect(after).toMatchObject({ allowed: true, currentUsage: 3 }); // only the new hold
      await expect(
        confirmSpend(env.deps, {
          projectId: p,
          reservationId: r.reservationId!,
          callId: callId(),
          ...DOLLAR_MODEL,
          modality: "text",
          tokenDetails: tokens(1, 1),
        }),
      ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Reservation not found or expired" });
    } finally {
      await short.close();
    }
  });

  it("releases an expired hold even when longer-lived holds were made first", async () => {
    // The check skips its scan for expired holds until one may have expired: a short hold made
    // after long ones must still be released on time.
    const short = budgetTestEnv({ RESERVATION_TTL_SECONDS: 1 }, env.db);
    // A client of its own, used at once: a cluster one must have connected first.
    await short.ready();
    const reserve = (deps: typeof env.deps, p: string, tokens: number) =>
      checkBudget(deps, {
        projectId: p,
        ...DOLLAR_MODEL,
        estimatedInputTokens: tokens,
        fallbackProviders: [],
        fallbackModels: [],
        modality: "text",
        uncountedCalls: 0,
        uncountedTokens: 0,
      });
    try {
      const p = await project({ limits: { daily: 20 } });
      expect(await reserve(env.deps, p, 1)).toMatchObject({ allowed: true, currentUsage: 3 }); // 300 s
      expect(await reserve(short.deps, p, 2)).toMatchObject({ allowed: true, currentUsage: 7 }); // 1 s
      expect(await reserve(env.deps, p, 0)).toMatchObject({ allowed: true, currentUsage: 9 }); // 300 s
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      // $3 + $2 still held, the $4 hold has lapsed, plus this check's $2.
      expect(await reserve(env.deps, p, 0)).toMatchObject({ allowed: true, currentUsage: 7 });
      expect(await env.redis.hget(budgetKeys(p).heldSums, "p")).toBe("7000000000");
      expect(await env.redis.zcard(budgetKeys(p).holds)).toBe(3);
    } finally {
      await short.close();
    }
  });

  it("never over-reserves under 200 concurrent checks against a tight limit", async () => {
    const p = await project({ mode: "hard_deny", limits: { daily: 100 } });
    const results = await Promise.all(Array.from({ length: 200 }, () => check(p, 1)));
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(33); // 33 × $3 = $99 ≤ $100 < 34 × $3
    expect(new Set(allowed.map((r) => r.reservationId)).size).toBe(33);
    expect(results.filter((r) => !r.allowed).every((r) => r.deniedByPeriod === "daily")).toBe(true);
    expect(await env.redis.hget(budgetKeys(p).heldSums, "p")).toBe("99000000000");
    expect(await env.redis.zcard(budgetKeys(p).holds)).toBe(33);
  });

  it("answers checks that reach Redis together exactly as it answers them one after another", async () => {
    // Twin projects; a stopped run in each. The same 40 checks (runs, a stopped run, an unpriced
    // model, amounts that reach the daily limit) go to one twin one at a time and to the other all
    // at once, through a client whose EVALSHAs are counted.
    const twins = [
      await project({ mode: "hard_deny", limits: { daily: 60, monthly: 100 } }),
      await project({ mode: "hard_deny", limits: { daily: 60, monthly: 100 } }),
    ];
    for (const p of twins) {
      await env.db.agentRun.create({
        data: {
          projectId: p,
          agentRunId: "halt",
          isAuto: false,
          firstSeenAt: new Date(),
          lastSeenAt: new Date(),
          stoppedAt: new Date(),
          stopReason: "budget_exhausted",
        },
      });
    }
    const together = budgetTestEnv({}, env.db);
    // A client of its own, used at once: a cluster one must have connected first.
    await together.ready();
    try {
      let evalshas = 0;
      const send = together.redis.sendCommand.bind(together.redis);
      together.redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
        if (command.name === "evalsha") evalshas++;
        return (send as (...a: unknown[]) => unknown)(command, ...rest);
      }) as typeof together.redis.sendCommand;
      const checkWith = (deps: typeof env.deps, p: string, i: number) =>
        checkBudget(deps, {
          projectId: p,
          ...(i % 7 === 3 ? { provider: "openai", model: "no-such-model-anywhere" } : DOLLAR_MODEL),
          estimatedInputTokens: i % 5,
          agentRunId: i % 11 === 4 ? "halt" : i % 3 === 0 ? "ra" : i % 3 === 1 ? "rb" : null,
          modality: "text",
        });
      // A first check each (loads the runtime, builds the counters, refreshes lifetimes).
      await checkWith(env.deps, twins[0]!, 0);
      await checkWith(together.deps, twins[1]!, 0);
      const oneByOne = [];
      for (let i = 1; i <= 40; i++) oneByOne.push(await checkWith(env.deps, twins[0]!, i));
      evalshas = 0;
      const atOnce = await Promise.all(
        Array.from({ length: 40 }, (_, i) => checkWith(together.deps, twins[1]!, i + 1)),
      );
      expect(evalshas).toBeLessThan(40);
      const comparable = (r: (typeof atOnce)[number]) => ({ ...r, reservationId: r.reservationId !== null });
      expect(atOnce.map(comparable)).toEqual(oneByOne.map(comparable));
      expect(oneByOne.some((r) => !r.allowed && r.deniedByPeriod === "daily")).toBe(true);
      expect(oneByOne.some((r) => r.deniedByPeriod === "run_stopped")).toBe(true);
      const [a, b] = twins.map((p) => budgetKeys(p));
      expect(await env.redis.hgetall(b!.heldSums)).toEqual(await env.redis.hgetall(a!.heldSums));
      expect(await env.redis.zcard(b!.holds)).toBe(await env.redis.zcard(a!.holds));
      const ids = atOnce.flatMap((r) => (r.reservationId ? [r.reservationId] : []));
      expect(await env.redis.hmget(b!.holdRecords, ...ids)).not.toContain(null);
    } finally {
      await together.close();
    }
  });

  it("folds fail-open tallies into usage before the verdict, at the model's higher token rate", async () => {
    const p = await project({ mode: "hard_deny", limits: { daily: 10 } });
    // 4 uncounted tokens at $2 (the output rate) = $8 held, then this check's $3 does not fit.
    const r = await check(p, 1, { uncountedCalls: 2, uncountedTokens: 4 });
    expect(r).toMatchObject({ allowed: false, deniedByPeriod: "daily", currentUsage: 8, remainingBudget: 2 });
    expect((await check(p, 0)).allowed).toBe(true); // 8 + 2 ≤ 10: the fold happened once
    const w = currentWindows(new Date());
    // Held, not added to usage: the calls' own events are the truth and arrive later.
    expect(await env.redis.get(budgetKeys(p).usage(w.daily.key))).toBe("0");
  });
});

function tokens(input: number, output: number) {
  return {
    input_tokens: input,
    output_tokens: output,
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
}
