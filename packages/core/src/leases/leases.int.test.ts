import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createBudgetRedis } from "../budgets/budget-redis";
import { budgetRuntimeCache } from "../budgets/budget-runtime";
import { checkBudget } from "../budgets/check-budget";
import { confirmSpend } from "../budgets/confirm-spend";
import { budgetKeys } from "../budgets/redis-keys";
import { currentWindows } from "../budgets/windows";
import {
  budgetTestEnv,
  callId,
  DOLLAR_MODEL,
  deleteProjectKeys,
  makeProject,
  testCatalogue,
} from "../testing/budgets";
import { type GrantLeaseInput, grantLease } from "./grant-lease";
import type { LeaseDeps } from "./lease-deps";
import { LEASE_TIMINGS, leaseKeys } from "./lease-keys";
import { listActiveLeases } from "./list-active-leases";
import { renewLease } from "./renew-lease";
import { surrenderLease } from "./surrender-lease";

// The $1/$2 test model with an output bound of 1: its worst-case rate is $2 a token, one call of
// no input is one token, and $100 of headroom is 50 tokens.
const env = budgetTestEnv();
const deps: LeaseDeps = { ...env.deps, catalogue: testCatalogue };
const projects: string[] = [];
afterAll(async () => {
  for (const p of projects) await deleteProjectKeys(env.redis, p);
  await env.close();
});
afterEach(() => {
  vi.useRealTimers();
});

async function project(opts: Parameters<typeof makeProject>[1] = {}) {
  const p = await makeProject(env, opts);
  projects.push(p.projectId);
  return p.projectId;
}

function grant(projectId: string, extra: Partial<GrantLeaseInput> = {}) {
  return grantLease(deps, {
    projectId,
    agentRunId: "run-1",
    holderId: "holder-a",
    ...DOLLAR_MODEL,
    ...extra,
  });
}

async function granted(projectId: string, extra: Partial<GrantLeaseInput> = {}) {
  const r = await grant(projectId, extra);
  if (!r.ok) throw new Error(`grant refused: ${r.refusal}`);
  return { body: r.body, answer: JSON.parse(r.body) as Record<string, unknown> };
}

const heldP = async (p: string) => Number((await env.redis.hget(budgetKeys(p).heldSums, "p")) ?? 0);
const usageM = async (p: string) =>
  Number((await env.redis.get(budgetKeys(p).usage(currentWindows(new Date()).monthly.key))) ?? 0);
const GRANT_KEYS = [
  "eligible",
  "allowed",
  "lease_id",
  "generation",
  "granted_tokens",
  "refresh_interval_s",
  "lease_length_s",
  "headroom_share_tokens",
  "posture",
  "final_grant",
  "project_id",
  "mode",
  "budget_limit",
  "current_usage",
  "remaining_budget",
];

describe("grantLease", () => {
  it("grants half the holder's share at the chain's worst-case rate and holds the claim beside reservations", async () => {
    const p = await project({ limits: { monthly: 100 } });
    const { answer } = await granted(p, { failOpen: false });
    expect(Object.keys(answer)).toEqual(GRANT_KEYS);
    expect(answer).toMatchObject({
      eligible: true,
      allowed: true,
      generation: 1,
      granted_tokens: 25,
      headroom_share_tokens: 50,
      lease_length_s: LEASE_TIMINGS.leaseLengthS,
      posture: { mode: "alert_only", on_unreachable: "local_enforce" },
      final_grant: false,
      project_id: p,
      mode: "alert_only",
      budget_limit: 100,
      current_usage: 0,
      remaining_budget: 100,
    });
    expect(answer.lease_id).toMatch(/^lse_[0-9a-f]{24}$/);
    expect(answer.refresh_interval_s).toBeGreaterThan(0);
    expect(answer.refresh_interval_s).toBeLessThan(answer.lease_length_s as number);
    expect(await heldP(p)).toBe(50e9);
    // A check sees the claim as held spend: $50 held + a $3 call fits, a $52 call does not.
    const check = (tokens: number) =>
      checkBudget(env.deps, { projectId: p, ...DOLLAR_MODEL, estimatedInputTokens: tokens });
    expect((await check(49)).allowed).toBe(false);
    expect((await check(47)).allowed).toBe(true);
  });

  it("jitters the refresh interval around 30 s, always below the lease length", async () => {
    const p = await project();
    const seen = new Set<number>();
    for (let i = 0; i < 5; i++) {
      const { answer } = await granted(p, { holderId: `h${i}` });
      const r = answer.refresh_interval_s as number;
      expect(r).toBeGreaterThanOrEqual(25.5);
      expect(r).toBeLessThanOrEqual(34.5);
      seen.add(r);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it("takes the worst-case rate over the declared chain", async () => {
    const p = await project({ limits: { monthly: 100 } });
    // gpt-4o-mini alone: many tokens; the $2/token fallback sets the rate.
    const cheap = await granted(p, { provider: "openai", model: "gpt-4o-mini", holderId: "cheap" });
    const chained = await granted(p, {
      provider: "openai",
      model: "gpt-4o-mini",
      fallbackProviders: ["openai"],
      fallbackModels: [DOLLAR_MODEL.model],
      agentRunId: "run-2",
    });
    expect(cheap.answer.granted_tokens as number).toBeGreaterThan(1000);
    expect(chained.answer.granted_tokens as number).toBeLessThan(50);
  });

  it("shares the headroom among the run's active holders", async () => {
    const p = await project({ limits: { monthly: 100 } });
    const a = await granted(p, { holderId: "a" }); // share 50 of $100 → 25 granted ($50 held)
    const b = await granted(p, { holderId: "b" }); // $50 left over 2 holders → share 12
    expect(a.answer.headroom_share_tokens).toBe(50);
    expect(b.answer.headroom_share_tokens).toBe(12);
    expect(b.answer.granted_tokens).toBe(6);
  });

  it("gives the whole share as a final grant when the budget is nearly gone", async () => {
    const p = await project({ mode: "hard_deny", limits: { monthly: 8 } });
    const { answer } = await granted(p);
    expect(answer).toMatchObject({ granted_tokens: 4, headroom_share_tokens: 4, final_grant: true });
  });

  it("grants 0 tokens, final, to an alert_only project past its cap", async () => {
    const p = await project({ limits: { monthly: 1 } });
    const { answer } = await granted(p);
    expect(answer).toMatchObject({ allowed: true, granted_tokens: 0, final_grant: true, mode: "alert_only" });
  });

  it("denies a hard_deny project without room for one call, naming the period", async () => {
    const p = await project({ mode: "hard_deny", limits: { daily: 1, monthly: 100 } });
    const { body, answer } = await granted(p);
    expect(Object.keys(answer)).toEqual([
      "eligible",
      "allowed",
      "denied_by_period",
      "project_id",
      "mode",
      "budget_limit",
      "current_usage",
      "remaining_budget",
    ]);
    expect(answer).toMatchObject({
      eligible: true,
      allowed: false,
      denied_by_period: "daily",
      mode: "hard_deny",
    });
    expect(body).not.toContain("lease_id");
    expect(await heldP(p)).toBe(0);
  });

  it("denies a stopped run with run_control only when asked for it", async () => {
    const p = await project();
    await env.db.agentRun.create({
      data: { projectId: p, agentRunId: "run-1", stoppedAt: new Date(), stopReason: "runaway" },
    });
    budgetRuntimeCache(env.deps).invalidateLocal(p);
    const plain = await granted(p);
    expect(plain.answer).toMatchObject({
      eligible: true,
      allowed: false,
      denied_by_period: "run_stopped",
      mode: "hard_deny",
      remaining_budget: 0,
    });
    expect(plain.answer.run_control).toBeUndefined();
    const opted = await granted(p, { runDirective: true });
    expect(opted.answer.run_control).toEqual({
      version: "1",
      action: "terminate",
      agent_run_id: "run-1",
      reason: "runaway",
    });
  });

  it("refuses ineligible chains: zero-rate, unit-priced, scoped rules", async () => {
    const p = await project();
    const zero = await granted(p, { provider: "openai", model: "no-such-model-for-leases" });
    expect(zero.answer).toMatchObject({
      eligible: false,
      allowed: true,
      ineligible_reason: "zero_rate_model",
    });
    expect(Object.keys(zero.answer)).toEqual([
      "eligible",
      "allowed",
      "ineligible_reason",
      "project_id",
      "mode",
      "budget_limit",
      "current_usage",
      "remaining_budget",
    ]);
    const local = await granted(p, { provider: "ollama", model: "llama3" });
    expect(local.answer.ineligible_reason).toBe("zero_rate_model");
    const unit = await granted(p, {
      fallbackProviders: ["openai"],
      fallbackModels: ["dall-e-3"],
    });
    expect(unit.answer.ineligible_reason).toBe("unit_priced_model");
    const scoped = await project({ tagRules: [{ selector: { team: "a" }, period: "monthly", limitUsd: 5 }] });
    expect((await granted(scoped)).answer.ineligible_reason).toBe("scoped_rules_present");
    expect(await heldP(p)).toBe(0);
  });

  it("caps a run at 16 holders (409) while other runs still grant; a holder's repeat gets its answer again", async () => {
    const p = await project({ limits: { monthly: 1_000_000 } });
    for (let i = 0; i < 16; i++) expect((await grant(p, { holderId: `h${i}` })).ok).toBe(true);
    expect(await grant(p, { holderId: "h16" })).toEqual({ ok: false, refusal: "holder_cap_exceeded" });
    expect((await grant(p, { holderId: "h16", agentRunId: "run-2" })).ok).toBe(true);
    const first = await granted(p, { holderId: "x", agentRunId: "run-3" });
    const again = await granted(p, { holderId: "x", agentRunId: "run-3" });
    expect(again.body).toBe(first.body);
    expect(await grant(p, { holderId: "x", agentRunId: "run-3", model: "gpt-4o" })).toEqual({
      ok: false,
      refusal: "holder_cap_exceeded",
    });
  });

  it("answers BUDGET_UNAVAILABLE fast when Redis is down", async () => {
    const p = await project();
    await granted(p); // warms the runtime
    const down = createBudgetRedis("redis://127.0.0.1:1");
    down.on("error", () => {});
    try {
      await expect(
        grantLease(
          { ...deps, redis: down },
          { projectId: p, agentRunId: "r", holderId: "h", ...DOLLAR_MODEL },
        ),
      ).rejects.toMatchObject({
        code: "BUDGET_UNAVAILABLE",
      });
    } finally {
      down.disconnect();
    }
  });
});

describe("renewLease", () => {
  async function leased(opts: Parameters<typeof makeProject>[1] = { limits: { monthly: 100 } }) {
    const p = await project(opts);
    const g = await granted(p);
    return { p, leaseId: g.answer.lease_id as string, g };
  }
  const renew = (p: string, leaseId: string, generation: number, extra: Record<string, unknown> = {}) =>
    renewLease(deps, { projectId: p, leaseId, holderId: "holder-a", generation, ...extra });

  it("issues generation + 1 under the same lease id, and replays it byte for byte to the predecessor", async () => {
    const { p, leaseId } = await leased();
    const r2 = await renew(p, leaseId, 1);
    if (!r2.ok) throw new Error(r2.refusal);
    expect(JSON.parse(r2.body)).toMatchObject({ lease_id: leaseId, generation: 2, granted_tokens: 25 });
    const replay = await renew(p, leaseId, 1, { spentTokens: 7 });
    expect(replay).toEqual(r2);
    expect(await renew(p, leaseId, 3)).toEqual({ ok: false, refusal: "generation_conflict" });
    const r3 = await renew(p, leaseId, 2);
    expect(r3.ok && JSON.parse(r3.body).generation).toBe(3);
    // Generation 1 is no longer the predecessor of the current one.
    expect(await renew(p, leaseId, 1)).toEqual({ ok: false, refusal: "generation_conflict" });
    expect(await heldP(p)).toBe(50e9); // one claim, never two
  });

  it("is not found for unknown, foreign-holder, other-project and expired leases", async () => {
    const { p, leaseId } = await leased();
    const other = await project();
    expect(await renew(p, "lse_000000000000000000000000", 1)).toEqual({ ok: false, refusal: "not_found" });
    expect(await renew(other, leaseId, 1)).toEqual({ ok: false, refusal: "not_found" });
    expect(
      await renewLease(deps, { projectId: p, leaseId, holderId: "someone-else", generation: 1 }),
    ).toEqual({ ok: false, refusal: "not_found" });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + LEASE_TIMINGS.expiryMs + 1_000);
    expect(await renew(p, leaseId, 1)).toEqual({ ok: false, refusal: "not_found" });
    expect(await heldP(p)).toBe(0); // the expired claim returned
    expect(await listActiveLeases(deps, p)).toEqual([]);
  });

  it("folds spent tokens beyond confirms and fail-open tokens once, as a lapsing hold", async () => {
    const { p, leaseId } = await leased({ limits: { monthly: 1000 } });
    const before = await heldP(p); // claim of 250 tokens = $500
    const r = await renew(p, leaseId, 1, { spentTokens: 10, uncountedTokens: 5, uncountedCalls: 2 });
    expect(r.ok).toBe(true);
    const answer = JSON.parse((r as { body: string }).body);
    // 15 tokens at $2 are held for the calls' events; the new claim is sized after them.
    const fold = 30e9;
    expect(await heldP(p)).toBe(fold + answer.granted_tokens * 2e9);
    expect(before).toBe(500e9);
    await renew(p, leaseId, 1, { spentTokens: 10, uncountedTokens: 5 }); // replay: nothing folds again
    expect(await heldP(p)).toBe(fold + answer.granted_tokens * 2e9);
  });

  it("lets exactly one of concurrent renewals of a generation issue the successor", async () => {
    const { p, leaseId } = await leased();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => renew(p, leaseId, 1, { spentTokens: 3 })),
    );
    const bodies = new Set(results.filter((r) => r.ok).map((r) => (r as { body: string }).body));
    expect(bodies.size).toBe(1);
    for (const r of results) if (!r.ok) expect(r.refusal).toBe("generation_conflict");
    expect(JSON.parse([...bodies][0]!).generation).toBe(2);
    // The 3 spent tokens were folded once: $6 beside the new claim.
    const g = JSON.parse([...bodies][0]!).granted_tokens as number;
    expect(await heldP(p)).toBe(6e9 + g * 2e9);
  });

  it("unions a re-declared chain (its dearer rate prices the next grant) and ends the lease on an ineligible one", async () => {
    const p = await project({ limits: { monthly: 100 } });
    const g = await granted(p, { provider: "openai", model: "gpt-4o-mini" });
    const leaseId = g.answer.lease_id as string;
    const r2 = await renew(p, leaseId, 1, { ...DOLLAR_MODEL });
    expect(r2.ok && JSON.parse(r2.body).granted_tokens).toBeLessThan(50);
    const r3 = await renew(p, leaseId, 2, { provider: "openai", model: "gpt-4o-mini" });
    expect(r3.ok && JSON.parse(r3.body).granted_tokens).toBeLessThan(50); // still the union's rate
    const r4 = await renew(p, leaseId, 3, { provider: "openai", model: "dall-e-3" });
    expect(r4.ok && JSON.parse(r4.body)).toMatchObject({
      eligible: false,
      ineligible_reason: "unit_priced_model",
    });
    expect(await heldP(p)).toBe(0);
    // The refused generation may still be surrendered (released 0); the ended lease renews no more.
    expect(
      await surrenderLease(deps, { projectId: p, leaseId, holderId: "holder-a", generation: 3 }),
    ).toEqual({
      ok: true,
      releasedTokens: 0,
    });
    expect(await renew(p, leaseId, 4)).toEqual({ ok: false, refusal: "generation_conflict" });
  });

  it("denies a renewal once the run is stopped", async () => {
    const { p, leaseId } = await leased();
    await env.db.agentRun.create({ data: { projectId: p, agentRunId: "run-1", stoppedAt: new Date() } });
    budgetRuntimeCache(env.deps).invalidateLocal(p);
    const r = await renew(p, leaseId, 1, { runDirective: true });
    expect(r.ok && JSON.parse(r.body)).toMatchObject({
      allowed: false,
      denied_by_period: "run_stopped",
      run_control: { agent_run_id: "run-1", reason: "manual_kill" },
    });
    expect(await heldP(p)).toBe(0);
  });
});

describe("surrenderLease and lease-funded confirms", () => {
  const surrender = (p: string, leaseId: string, generation = 1, spentTokens = 0) =>
    surrenderLease(deps, { projectId: p, leaseId, holderId: "holder-a", generation, spentTokens });
  const confirm = (p: string, leaseId: string, id: string, input: number, output: number) =>
    confirmSpend(env.deps, {
      projectId: p,
      leaseId,
      callId: id,
      ...DOLLAR_MODEL,
      modality: "text",
      tokenDetails: { input_tokens: input, output_tokens: output } as never,
    });

  it("releases the outstanding claim once; a repeat releases 0", async () => {
    const p = await project({ limits: { monthly: 100 } });
    const leaseId = (await granted(p)).answer.lease_id as string;
    expect(await surrender(p, leaseId, 2)).toEqual({ ok: false, refusal: "generation_conflict" });
    expect(await surrender(p, leaseId)).toEqual({ ok: true, releasedTokens: 25 });
    expect(await heldP(p)).toBe(0);
    expect(await surrender(p, leaseId)).toEqual({ ok: true, releasedTokens: 0 });
    expect(await surrender(p, "lse_000000000000000000000000")).toEqual({ ok: false, refusal: "not_found" });
    expect(
      await surrenderLease(deps, { projectId: p, leaseId, holderId: "intruder", generation: 1 }),
    ).toEqual({ ok: false, refusal: "not_found" });
    const renewed = await renewLease(deps, { projectId: p, leaseId, holderId: "holder-a", generation: 1 });
    expect(renewed).toEqual({ ok: false, refusal: "not_found" });
  });

  it("releases 0 for a lease that already expired", async () => {
    const p = await project();
    const leaseId = (await granted(p)).answer.lease_id as string;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + LEASE_TIMINGS.expiryMs + 1_000);
    expect(await surrender(p, leaseId)).toEqual({ ok: true, releasedTokens: 0 });
  });

  it("a confirm draws the claim down and moves the counters by the cost; a replay settles nothing", async () => {
    const p = await project({ limits: { monthly: 100 } });
    const leaseId = (await granted(p)).answer.lease_id as string; // 25 tokens, $50 held
    const id = callId();
    expect(await confirm(p, leaseId, id, 3, 2)).toEqual({ outcome: "settled" }); // $3 + $4
    expect(await usageM(p)).toBe(7e9);
    expect(await heldP(p)).toBe(40e9); // 5 tokens at $2 left the claim
    expect(await confirm(p, leaseId, id, 3, 2)).toEqual({ outcome: "duplicate" });
    expect(await usageM(p)).toBe(7e9);
    expect(await heldP(p)).toBe(40e9);
    // Spend the rest of the claim and beyond: only the part beyond it adds to usage + held.
    await confirm(p, leaseId, callId(), 30, 0);
    expect(await heldP(p)).toBe(0);
    expect(await usageM(p)).toBe(37e9);
    const [row] = await listActiveLeases(deps, p);
    expect(row).toMatchObject({
      leaseId,
      agentRunId: "run-1",
      holderId: "holder-a",
      generation: 1,
      grantedTokens: 25,
      drawnTokens: 35,
    });
    // Reported spend that confirms already accounted does not fold again.
    const r = await renewLease(deps, {
      projectId: p,
      leaseId,
      holderId: "holder-a",
      generation: 1,
      spentTokens: 35,
    });
    expect(r.ok).toBe(true);
    const g = JSON.parse((r as { body: string }).body).granted_tokens as number;
    expect(await heldP(p)).toBe(g * 2e9);
    // A confirm of a lease nobody granted is not found.
    await expect(confirm(p, "lse_000000000000000000000000", callId(), 1, 1)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("a confirm on an expired lease settles its whole cost", async () => {
    const p = await project({ limits: { monthly: 100 } });
    const leaseId = (await granted(p)).answer.lease_id as string;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + LEASE_TIMINGS.expiryMs + 1_000);
    expect(await confirm(p, leaseId, callId(), 1, 1)).toEqual({ outcome: "settled" });
    expect(await usageM(p)).toBe(3e9);
    expect(await heldP(p)).toBe(0);
    expect(await env.redis.exists(leaseKeys(p).lease(leaseId))).toBe(1);
  });
});
