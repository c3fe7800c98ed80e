import { randomUUID } from "node:crypto";
import { parseConfig } from "@breakwater/config";
import {
  budgetPricingFromCatalogue,
  createBudgetRedis,
  createDeps,
  grantLease,
  PriceCatalogue,
  SEED_PRICE_CARDS,
} from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { createAuth } from "../auth/create-auth";
import { createContext } from "../context";
import { createCaller } from "../root";

const config = parseConfig(process.env);
const deps = createDeps(config, "api-lease-test");
const auth = createAuth(deps);
const redis = createBudgetRedis(config);
const catalogue = PriceCatalogue.fromCards(SEED_PRICE_CARDS);
afterAll(async () => {
  redis.disconnect();
  await deps.db.$disconnect();
});

async function signUp(name: string) {
  const res = await auth.api.signUpEmail({
    body: {
      email: `${name.toLowerCase()}-${randomUUID()}@example.test`,
      name,
      password: "correct horse battery",
    },
    returnHeaders: true,
  });
  const token = /better-auth\.session_token=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  const headers = new Headers({ cookie: `better-auth.session_token=${token}` });
  return async () => createCaller(await createContext({ deps, auth, headers }));
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof TRPCError ? e.code : String(e)),
  );

describe("lease.listActive", () => {
  it("lists the project's live leases to its organization and NOT_FOUND to anyone else", async () => {
    const asA = await (await signUp("Lea"))();
    await asA.organization.create({ name: "Lease Co" });
    const project = await asA.project.create({ name: "agents", mode: "alert_only", limits: { monthly: 50 } });
    expect(await asA.lease.listActive({ projectId: project.id })).toEqual([]);

    const granted = await grantLease(
      { ...deps, redis, pricing: budgetPricingFromCatalogue(catalogue), catalogue },
      { projectId: project.id, agentRunId: "run-7", holderId: "sdk-1", provider: "openai", model: "gpt-5.5" },
    );
    expect(granted.ok).toBe(true);
    const answer = JSON.parse((granted as { body: string }).body) as {
      lease_id: string;
      granted_tokens: number;
    };
    const rows = await asA.lease.listActive({ projectId: project.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      leaseId: answer.lease_id,
      agentRunId: "run-7",
      holderId: "sdk-1",
      generation: 1,
      grantedTokens: answer.granted_tokens,
      drawnTokens: 0,
    });
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now());

    const asB = await (await signUp("Ben"))();
    await asB.organization.create({ name: "Other Co" });
    expect(await codeOf(asB.lease.listActive({ projectId: project.id }))).toBe("NOT_FOUND");
    const anonymous = createCaller(await createContext({ deps, auth, headers: new Headers() }));
    expect(await codeOf(anonymous.lease.listActive({ projectId: project.id }))).toBe("UNAUTHORIZED");
    await redis.del(`bw:bud:{${project.id}}:lses`);
  });
});
