import { sharedBudgetRedis } from "../budgets/budget-redis";
import type { Ctx } from "../context";
import { getProject } from "../tenancy/list-tenancy";
import { type ActiveLease, listActiveLeases } from "./list-active-leases";

/**
 * The live run leases of a project of the caller's organization (another tenant's project is
 * NOT_FOUND), read from Redis: holder, run, generation, granted and drawn tokens, expiry.
 */
export async function listProjectLeases(ctx: Ctx, projectId: string): Promise<ActiveLease[]> {
  await getProject(ctx, projectId);
  return listActiveLeases({ redis: ctx.redis ?? (await sharedBudgetRedis(ctx.config)) }, projectId);
}
