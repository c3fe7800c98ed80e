import type { RedisClient } from "@breakwater/queue";
import { withRedis } from "../budgets/budget-redis";
import { leaseKeys } from "./lease-keys";

export interface ActiveLease {
  leaseId: string;
  agentRunId: string;
  holderId: string;
  generation: number;
  grantedTokens: number;
  /** Tokens drawn in the current generation (confirmed or reported spend). */
  drawnTokens: number;
  expiresAt: Date;
}

/** The project's live leases, soonest to expire first (at most `limit`), read from Redis. */
export async function listActiveLeases(
  deps: { redis: RedisClient },
  projectId: string,
  limit = 200,
): Promise<ActiveLease[]> {
  const lk = leaseKeys(projectId);
  return withRedis(
    deps.redis,
    async () => {
      const ids = await deps.redis.zrangebyscore(lk.index, Date.now(), "+inf", "LIMIT", 0, limit);
      if (ids.length === 0) return [];
      const pipe = deps.redis.pipeline();
      for (const id of ids) pipe.hmget(lk.lease(id), "run", "h", "g", "gt", "d0", "dr", "exp", "st");
      const rows = (await pipe.exec()) ?? [];
      const out: ActiveLease[] = [];
      rows.forEach(([err, value], i) => {
        const f = value as (string | null)[] | null;
        if (err || !f || f[0] === null || f[7] !== "l") return;
        out.push({
          leaseId: ids[i]!,
          agentRunId: f[0] ?? "",
          holderId: f[1] ?? "",
          generation: Number(f[2]),
          grantedTokens: Number(f[3] ?? 0),
          drawnTokens: Math.max(0, Number(f[5] ?? 0) - Number(f[4] ?? 0)),
          expiresAt: new Date(Number(f[6])),
        });
      });
      return out;
    },
    1_000,
  );
}
