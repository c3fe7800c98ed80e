import { parseConfig, processEnv } from "@breakwater/config";
import {
  type BudgetDeps,
  budgetPricingFromCatalogue,
  confirmSpend,
  createBudgetRedis,
  createOrganization,
  createProject,
  currentWindows,
  grantLease,
  type LeaseDeps,
  newId,
  PriceCatalogue,
  renewLease,
  SEED_PRICE_CARDS,
  surrenderLease,
  systemCtx,
} from "@breakwater/core";
import { createDb } from "@breakwater/db";
import fc from "fast-check";
import { pino } from "pino";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

// Property: under random interleavings of grants, renewals, confirms (and their replays),
// surrenders and expiries from several holders of several runs, the settled spend (the live
// counters) equals the cost of the distinct confirmed calls — no token counted twice — and never
// exceeds the budget by more than one call's worth; nor does what is spent plus what live leases
// still promise. Holders spend only what their leases grant, as the SDK does.

const MODEL = { provider: "openai", model: "bw-lease-prop-dollar" } as const; // $1 in, $2 out per token
const catalogue = PriceCatalogue.fromCards([
  ...SEED_PRICE_CARDS,
  {
    provider: "openai",
    model: MODEL.model,
    inputPerMtok: "1000000",
    cachedInputPerMtok: null,
    cacheWrite5mPerMtok: null,
    cacheWrite1hPerMtok: null,
    outputPerMtok: "2000000",
    source: "test fixture",
    sourceDate: "2026-11-30",
  },
]);
const config = { ...parseConfig(processEnv()), DEFAULT_OUTPUT_TOKEN_BOUND: 1 };
const db = createDb(config.DATABASE_URL);
const redis = createBudgetRedis(config);
const log = pino({ level: "silent" });
const budgetDeps: BudgetDeps = { db, config, log, redis, pricing: budgetPricingFromCatalogue(catalogue) };
const deps: LeaseDeps = { ...budgetDeps, catalogue };
const projects: string[] = [];

afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  for (const p of projects) {
    const keys = await redis.keys(`bw:bud:{${p}}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  redis.disconnect();
  await db.$disconnect();
});

const LIMIT_USD = 200;
const MAX_CALL_USD = 10 * 1 + 10 * 2; // at most 10 input and 10 output tokens a call

type Action =
  | { kind: "grant"; holder: number; run: number }
  | { kind: "call"; holder: number; input: number; output: number }
  | { kind: "replay"; holder: number }
  | { kind: "renew"; holder: number; stale: boolean }
  | { kind: "surrender"; holder: number }
  | { kind: "expire" };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("grant" as const), holder: fc.nat(5), run: fc.nat(1) }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("call" as const),
      holder: fc.nat(5),
      input: fc.integer({ min: 0, max: 10 }),
      output: fc.integer({ min: 0, max: 10 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replay" as const), holder: fc.nat(5) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("renew" as const), holder: fc.nat(5), stale: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("surrender" as const), holder: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const) }) },
);

interface Holder {
  id: string;
  run: string;
  leaseId: string | null;
  generation: number;
  remaining: number;
  spentSinceReport: number;
  deadline: number;
  lastCall: { callId: string; input: number; output: number } | null;
}

async function freshProject(): Promise<string> {
  const sys = systemCtx({ db, config, log });
  const suffix = newId("proj").slice(-10);
  const org = await createOrganization(sys, { name: `Lease prop ${suffix}`, planSlug: "business" });
  const project = await createProject(sys, {
    organizationId: org.id,
    name: `lease prop ${suffix}`,
    mode: "hard_deny",
    limits: { monthly: LIMIT_USD },
  });
  projects.push(project.id);
  return project.id;
}

describe("leases under random interleavings", () => {
  it("never count a token twice nor settle more than the budget plus one call", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 40, maxLength: 80 }), async (actions) => {
        const projectId = await freshProject();
        vi.useFakeTimers({ toFake: ["Date"] });
        const holders: Holder[] = [0, 1, 2, 3, 4, 5].map((i) => ({
          id: `holder-${i}`,
          run: "",
          leaseId: null,
          generation: 0,
          remaining: 0,
          spentSinceReport: 0,
          deadline: 0,
          lastCall: null,
        }));
        let settledUsd = 0; // the cost of every distinct confirmed call

        const install = (h: Holder, body: string) => {
          const a = JSON.parse(body) as Record<string, unknown>;
          if (a.lease_id === undefined) {
            h.leaseId = null;
            h.remaining = 0;
            return;
          }
          h.leaseId = a.lease_id as string;
          h.generation = a.generation as number;
          h.remaining = a.granted_tokens as number;
          h.deadline = Date.now() + (a.lease_length_s as number) * 1000;
        };

        for (const act of actions) {
          if (act.kind === "expire") {
            vi.setSystemTime(Date.now() + 125_000);
            continue;
          }
          const h = holders[act.holder]!;
          if (h.leaseId && Date.now() >= h.deadline) h.leaseId = null; // the SDK's own deadline
          switch (act.kind) {
            case "grant": {
              if (h.leaseId) break;
              h.run = `run-${act.run}`;
              const r = await grantLease(deps, {
                projectId,
                agentRunId: h.run,
                holderId: h.id,
                ...MODEL,
                estimatedInputTokens: 10,
              });
              if (r.ok) {
                install(h, r.body);
                h.spentSinceReport = 0;
              }
              break;
            }
            case "call": {
              const tokens = act.input + act.output;
              if (!h.leaseId || h.remaining < 20) break; // the SDK reserves input + output bound
              h.remaining -= tokens;
              h.spentSinceReport += tokens;
              const id = crypto.randomUUID();
              await confirmSpend(budgetDeps, {
                projectId,
                leaseId: h.leaseId,
                callId: id,
                ...MODEL,
                modality: "text",
                tokenDetails: { input_tokens: act.input, output_tokens: act.output } as never,
              });
              settledUsd += act.input * 1 + act.output * 2;
              h.lastCall = { callId: id, input: act.input, output: act.output };
              break;
            }
            case "replay": {
              if (!h.lastCall || !h.leaseId) break;
              const r = await confirmSpend(budgetDeps, {
                projectId,
                leaseId: h.leaseId,
                callId: h.lastCall.callId,
                ...MODEL,
                modality: "text",
                tokenDetails: { input_tokens: h.lastCall.input, output_tokens: h.lastCall.output } as never,
              });
              expect(r.outcome).toBe("duplicate");
              break;
            }
            case "renew": {
              if (!h.leaseId) break;
              const generation = act.stale && h.generation > 1 ? h.generation - 1 : h.generation;
              const r = await renewLease(deps, {
                projectId,
                leaseId: h.leaseId,
                holderId: h.id,
                generation,
                spentTokens: h.spentSinceReport,
                estimatedInputTokens: 10,
              });
              if (!r.ok) {
                if (r.refusal === "not_found") h.leaseId = null;
                break;
              }
              if (generation === h.generation) {
                install(h, r.body);
                h.spentSinceReport = 0;
              }
              break;
            }
            case "surrender": {
              if (!h.leaseId) break;
              const r = await surrenderLease(deps, {
                projectId,
                leaseId: h.leaseId,
                holderId: h.id,
                generation: h.generation,
                spentTokens: h.spentSinceReport,
              });
              expect(r.ok).toBe(true);
              h.leaseId = null;
              h.spentSinceReport = 0;
              break;
            }
          }
          // What is spent plus what live leases still promise stays within the budget (plus one
          // call): a lease never funds more than its share of what remains.
          const promisedUsd = holders.reduce(
            (sum, x) => sum + (x.leaseId && Date.now() < x.deadline ? Math.max(0, x.remaining) * 2 : 0),
            0,
          );
          expect(settledUsd + promisedUsd).toBeLessThanOrEqual(LIMIT_USD + MAX_CALL_USD);
        }
        const month = currentWindows(new Date()).monthly.key;
        const usageNanos = Number((await redis.get(`bw:bud:{${projectId}}:u:${month}`)) ?? 0);
        expect(usageNanos).toBe(settledUsd * 1e9);
        expect(settledUsd).toBeLessThanOrEqual(LIMIT_USD + MAX_CALL_USD);
        vi.useRealTimers();
      }),
      { numRuns: 30 },
    );
  }, 180_000);
});
