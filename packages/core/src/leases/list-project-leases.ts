import { type RedisClient, type RedisTarget, whenReady } from "@breakwater/queue";
import { createBudgetRedis } from "../budgets/budget-redis";
import type { Ctx } from "../context";
import { getProject } from "../tenancy/list-tenancy";
import { type ActiveLease, listActiveLeases } from "./list-active-leases";

const globalForLeases = globalThis as unknown as { __breakwaterLeaseRedis?: Map<string, RedisClient> };

/** A fail-fast budget Redis client per target, for processes whose deps carry none (the dashboard). */
async function leaseRedis(target: RedisTarget): Promise<RedisClient> {
  globalForLeases.__breakwaterLeaseRedis ??= new Map();
  const id = JSON.stringify([target.REDIS_URL, target.REDIS_CLUSTER_NODES ?? null]);
  let client = globalForLeases.__breakwaterLeaseRedis.get(id);
  if (!client) {
    client = createBudgetRedis(target);
    client.on("error", () => {}); // reconnects by itself; reads answer BUDGET_UNAVAILABLE meanwhile
    globalForLeases.__breakwaterLeaseRedis.set(id, client);
  }
  // Waits (bounded) for a fresh client's connection: its commands fail fast until then.
  await whenReady(client, 1_000);
  return client;
}

/**
 * The live run leases of a project of the caller's organization (another tenant's project is
 * NOT_FOUND), read from Redis: holder, run, generation, granted and drawn tokens, expiry.
 */
export async function listProjectLeases(ctx: Ctx, projectId: string): Promise<ActiveLease[]> {
  await getProject(ctx, projectId);
  return listActiveLeases({ redis: ctx.redis ?? (await leaseRedis(ctx.config)) }, projectId);
}
