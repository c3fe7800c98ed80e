import { parseConfig } from "@breakwater/config";
import { createDb } from "@breakwater/db";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidationBus } from "../cache/invalidating-cache";
import { systemCtx } from "../context";
import { createEntitlementCache, invalidateEntitlements } from "../entitlements/entitlement-cache";
import { newId } from "../ids";
import { createOrganization } from "../tenancy/create-organization";
import { createProject } from "../tenancy/create-project";
import { bearerKey, createApiKeyAuthenticator } from "./authenticate-api-key";
import { createApiKey } from "./create-api-key";
import { revokeApiKey } from "./revoke-api-key";

const config = parseConfig(process.env);
const db = createDb(config.DATABASE_URL);
const sys = systemCtx({ db, config, log: pino({ level: "silent" }) });
const buses: InvalidationBus[] = [];
async function replica() {
  const bus = InvalidationBus.fromTarget(config);
  await bus.start();
  buses.push(bus);
  return bus;
}
afterAll(async () => {
  for (const b of buses) await b.stop();

  await db.$disconnect();
});

async function until(ms: number, probe: () => Promise<boolean>) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await probe()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("timed out");
}

describe("API-key authentication across replicas", () => {
  it("only the minted shape is a key", () => {
    expect(bearerKey(`Bearer sk_proj_${"a".repeat(64)}`)).toBe(`sk_proj_${"a".repeat(64)}`);
    expect(bearerKey(`bearer   sk_proj_${"a".repeat(64)}`)).toBe(`sk_proj_${"a".repeat(64)}`);
    for (const h of [
      null,
      "",
      "Bearer",
      `Bearer sk_proj_${"A".repeat(64)}`,
      `Token sk_proj_${"a".repeat(64)}`,
    ]) {
      expect(bearerKey(h)).toBeNull();
    }
  });

  it("a revoked key stops authenticating on every replica within a second", async () => {
    const org = await createOrganization(sys, { name: `Keys ${newId("res")}`, planSlug: "team" });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const { apiKey, key } = await createApiKey(sys, { projectId: project.id });
    const a = createApiKeyAuthenticator({ db, bus: await replica() });
    const b = createApiKeyAuthenticator({ db, bus: await replica() });
    const header = `Bearer ${apiKey}`;
    for (const r of [a, b]) {
      expect(await r.authenticate(header)).toMatchObject({ projectId: project.id, readOnly: false });
      // Warm: answered from memory, synchronously.
      expect(r.authenticate(header)).not.toBeInstanceOf(Promise);
    }
    await revokeApiKey(sys, { keyId: key.id });
    const elapsed = await until(
      1000,
      async () => (await a.authenticate(header)) === null && (await b.authenticate(header)) === null,
    );
    expect(elapsed).toBeLessThan(1000);
  });

  it("an expired key is refused even while cached", async () => {
    const org = await createOrganization(sys, { name: `Exp ${newId("res")}`, planSlug: "team" });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const expiresAt = new Date(Date.now() + 60_000);
    const { apiKey } = await createApiKey(sys, { projectId: project.id, expiresAt });
    const auth = createApiKeyAuthenticator({ db });
    expect(await auth.authenticate(`Bearer ${apiKey}`)).not.toBeNull();
    expect(await auth.authenticate(`Bearer ${apiKey}`, expiresAt.getTime() + 1)).toBeNull();
  });

  it("entitlement changes reach every replica within a second", async () => {
    const org = await createOrganization(sys, { name: `Ent ${newId("res")}`, planSlug: "free" });
    const project = await createProject(sys, { organizationId: org.id, name: "p" });
    const a = createEntitlementCache({ db, bus: await replica() });
    const b = createEntitlementCache({ db, bus: await replica() });
    expect((await a.get(project.id)).failover_tuning).toBe(false);
    expect((await b.get(project.id)).failover_tuning).toBe(false);
    await db.entitlementOverride.create({
      data: {
        id: newId("ovr"),
        organizationId: org.id,
        featureKey: "failover_tuning",
        value: true,
        reason: "test",
      },
    });
    await invalidateEntitlements({ config }, { organizationId: org.id });
    const elapsed = await until(
      1000,
      async () => (await a.get(project.id)).failover_tuning && (await b.get(project.id)).failover_tuning,
    );
    expect(elapsed).toBeLessThan(1000);
  });
});

describe("unknown keys on the SDK API (known-key set)", () => {
  it("a made-up well-formed key is refused synchronously, with no lookup, once the set is loaded", async () => {
    const auth = createApiKeyAuthenticator({
      db,
      bus: await replica(),
      knownKeys: true,
      lookupsPerSecond: 5,
    });
    await auth.start();
    try {
      let looked = 0;
      for (let i = 0; i < 500; i++) {
        const r = auth.authenticate(`Bearer sk_proj_${i.toString(16).padStart(64, "e")}`, 1_000_000);
        if (r instanceof Promise) {
          looked++;
          expect(await r).toBeNull();
        } else expect(r).toBeNull();
      }
      // The lookup budget (burst 5 at one instant) is all the made-up keys got; none holds a cache slot.
      expect(looked).toBeLessThanOrEqual(5);
      expect(auth.cache.size).toBe(0);
    } finally {
      auth.stop();
    }
  });

  it("a key created after the set was loaded authenticates at once (announced on the bus)", async () => {
    const auth = createApiKeyAuthenticator({
      db,
      bus: await replica(),
      knownKeys: true,
      lookupsPerSecond: 1,
    });
    await auth.start();
    try {
      // Spend the lookup budget on made-up keys: the new key must get in through the announcement.
      for (let i = 0; i < 5; i++) await auth.authenticate(`Bearer sk_proj_${"f".repeat(63)}${i}`, 2_000_000);
      const org = await createOrganization(sys, { name: `New ${newId("res")}`, planSlug: "team" });
      const project = await createProject(sys, { organizationId: org.id, name: "p" });
      const { apiKey } = await createApiKey(sys, { projectId: project.id });
      await until(1000, async () => (await auth.authenticate(`Bearer ${apiKey}`, 2_000_000)) !== null);
      expect(await auth.authenticate(`Bearer ${apiKey}`, 2_000_000)).toMatchObject({ projectId: project.id });
    } finally {
      auth.stop();
    }
  });

  it("an unknown key looked up once is refused without a lookup for the negative TTL", async () => {
    const auth = createApiKeyAuthenticator({ db, negativeTtlMs: 10_000 });
    const header = `Bearer sk_proj_${"9".repeat(64)}`;
    const first = auth.authenticate(header, 5_000_000);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBeNull();
    expect(auth.authenticate(header, 5_009_000)).toBeNull();
    expect(auth.cache.size).toBe(0);
    // After the TTL it is looked up again.
    const later = auth.authenticate(header, 5_011_000);
    expect(later).toBeInstanceOf(Promise);
    await later;
  });
});
