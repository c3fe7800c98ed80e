import { randomBytes, randomUUID } from "node:crypto";
import { type RedisClient, rateLimitRedis, scanKeys } from "@breakwater/core";
import { afterAll, describe, expect, it } from "vitest";
import { apiTestEnv } from "../testing";
import { AUTH_RATE_LIMIT, createAuthHandler } from "./auth-handler";
import { PEER_ADDRESS_HEADER } from "./client-ip";
import { createAuth, createAuthLimiter } from "./create-auth";

const { deps, close } = apiTestEnv("auth-limits-test");
const { config } = deps;
// Each run counts under its own prefix, so reruns and other suites on this Redis never collide.
const prefix = `test:auth-rl:${randomUUID()}`;
const connections: RedisClient[] = [];

/** One dashboard replica: its own Redis connection and better-auth instance, the shared prefix. */
function replica(trustedHops = 0) {
  const redis = rateLimitRedis(config);
  connections.push(redis);
  const limiter = createAuthLimiter(deps, redis, prefix);
  const auth = createAuth(deps, { limiter });
  return { auth, handle: createAuthHandler({ handle: auth.handler, limiter, trustedHops }) };
}

afterAll(async () => {
  const redis = connections[0]!;
  // Every master's keys on a cluster; one DEL per key (they need not share a slot).
  for (const key of await scanKeys(redis, `${prefix}:*`)) await redis.del(key);
  await Promise.all(connections.map((r) => r.quit()));
  await close();
});

const randomIp = () => `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const uniqueEmail = () => `limit-${randomUUID()}@example.test`;

function signIn(
  handle: (r: Request) => Promise<Response>,
  body: { email: string; password: string },
  net: { peer: string; forwardedFor?: string },
) {
  const headers = new Headers({
    "content-type": "application/json",
    origin: config.PUBLIC_URL,
    [PEER_ADDRESS_HEADER]: net.peer,
  });
  if (net.forwardedFor) headers.set("x-forwarded-for", net.forwardedFor);
  return handle(
    new Request(`${config.PUBLIC_URL}/api/auth/sign-in/email`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
}

async function statuses(n: number, attempt: (i: number) => Promise<Response>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await attempt(i)).status);
  return out;
}

const wrong = (email: string) => ({ email, password: "not the password" });

describe("sign-in limits", () => {
  it("refuses a client that rotates X-Forwarded-For once the per-address limit is spent", async () => {
    const { handle } = replica();
    const peer = randomIp();
    const max = AUTH_RATE_LIMIT.credentials.max;
    // A different claimed address and a different account on every attempt: only the peer is constant.
    const seen = await statuses(max + 2, () =>
      signIn(handle, wrong(uniqueEmail()), { peer, forwardedFor: randomIp() }),
    );
    expect(seen.slice(0, max)).toEqual(Array(max).fill(401));
    expect(seen.slice(max)).toEqual([429, 429]);
    // Another client is not affected.
    expect((await signIn(handle, wrong(uniqueEmail()), { peer: randomIp() })).status).toBe(401);
  });

  it("behind a trusted proxy limits the forwarded client, not the proxy", async () => {
    const { handle } = replica(1);
    const proxy = randomIp();
    const client = randomIp();
    const max = AUTH_RATE_LIMIT.credentials.max;
    const seen = await statuses(max + 1, () =>
      // The client prepends made-up addresses; the proxy appends the one it saw.
      signIn(handle, wrong(uniqueEmail()), { peer: proxy, forwardedFor: `${randomIp()}, ${client}` }),
    );
    expect(seen.at(-1)).toBe(429);
    // Other clients behind the same proxy still get through.
    expect(
      (await signIn(handle, wrong(uniqueEmail()), { peer: proxy, forwardedFor: randomIp() })).status,
    ).toBe(401);
  });

  it("limits guesses at one account across any number of addresses, and says when to retry", async () => {
    const { auth, handle } = replica();
    const email = uniqueEmail();
    await auth.api.signUpEmail({ body: { email, name: "Target", password: "correct horse battery" } });
    const max = AUTH_RATE_LIMIT.account.max;
    // Letter case does not make a new account.
    const seen = await statuses(max, (i) =>
      signIn(handle, wrong(i % 2 ? email.toUpperCase() : email), { peer: randomIp() }),
    );
    expect(seen).toEqual(Array(max).fill(401));
    const refused = await signIn(handle, { email, password: "correct horse battery" }, { peer: randomIp() });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("x-retry-after"));
    expect(retryAfter).toBeGreaterThan(AUTH_RATE_LIMIT.account.window - 60);
    expect(retryAfter).toBeLessThanOrEqual(AUTH_RATE_LIMIT.account.window);
    // Other accounts from the same addresses are untouched.
    expect((await signIn(handle, wrong(uniqueEmail()), { peer: randomIp() })).status).toBe(401);
  });

  it("forgets an account's failures once its owner signs in", async () => {
    const { auth, handle } = replica();
    const email = uniqueEmail();
    await auth.api.signUpEmail({ body: { email, name: "Owner", password: "correct horse battery" } });
    const max = AUTH_RATE_LIMIT.account.max;
    await statuses(max - 1, () => signIn(handle, wrong(email), { peer: randomIp() }));
    expect(
      (await signIn(handle, { email, password: "correct horse battery" }, { peer: randomIp() })).status,
    ).toBe(200);
    const after = await statuses(max - 1, () => signIn(handle, wrong(email), { peer: randomIp() }));
    expect(after).toEqual(Array(max - 1).fill(401));
  });

  it("shares the counts between replicas on the same Redis", async () => {
    const a = replica();
    const b = replica();
    const peer = randomIp();
    const max = AUTH_RATE_LIMIT.credentials.max;
    const seen = await statuses(max + 1, (i) =>
      signIn(i % 2 ? b.handle : a.handle, wrong(uniqueEmail()), { peer }),
    );
    expect(seen.slice(0, max)).toEqual(Array(max).fill(401));
    expect(seen[max]).toBe(429);

    const email = uniqueEmail();
    const accountMax = AUTH_RATE_LIMIT.account.max;
    await statuses(accountMax, (i) =>
      signIn(i % 2 ? b.handle : a.handle, wrong(email), { peer: randomIp() }),
    );
    expect((await signIn(a.handle, wrong(email), { peer: randomIp() })).status).toBe(429);
    expect((await signIn(b.handle, wrong(email), { peer: randomIp() })).status).toBe(429);
  });
});
