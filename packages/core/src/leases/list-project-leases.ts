import type { Redis } from "ioredis";
import { createBudgetRedis } from "../budgets/budget-redis";
import type { Ctx } from "../context";
import { getProject } from "../tenancy/list-tenancy";
import { type ActiveLease, listActiveLeases } from "./list-active-leases";

const globalForLeases = globalThis as unknown as { __breakwaterLeaseRedis?: Map<string, Redis> };

/** A fail-fast budget Redis client per URL, for processes whose deps carry none (the dashboard). */
function leaseRedis(url: string): Redis {
  globalForLeases.__breakwaterLeaseRedis ??= new Map();
  let client = globalForLeases.__breakwaterLeaseRedis.get(url);
  if (!client) {
    client = createBudgetRedis(url);
    client.on("error", () => {}); // reconnects by itself; reads answer BUDGET_UNAVAILABLE meanwhile
    globalForLeases.__breakwaterLeaseRedis.set(url, client);
  }
  return client;
}

/** Waits (bounded) for a fresh client's connection: its commands fail fast until then. */
async function connected(client: Redis, ms = 1_000): Promise<Redis> {
  if (client.status === "ready") return client;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    }
    client.once("ready", done);
  });
  return client;
}

/**
 * The live run leases of a project of the caller's organization (another tenant's project is
 * NOT_FOUND), read from Redis: holder, run, generation, granted and drawn tokens, expiry.
 */
export async function listProjectLeases(ctx: Ctx, projectId: string): Promise<ActiveLease[]> {
  await getProject(ctx, projectId);
  return listActiveLeases(
    { redis: ctx.redis ?? (await connected(leaseRedis(ctx.config.REDIS_URL))) },
    projectId,
  );
}
