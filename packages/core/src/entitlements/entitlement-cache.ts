import type { PrismaClient } from "@breakwater/db";
import type { RedisClient, RedisTarget } from "@breakwater/queue";
import type { Logger } from "pino";
import { publishInvalidation } from "../api-keys/invalidate-api-key";
import { InvalidatingCache, type InvalidationBus } from "../cache/invalidating-cache";
import { notFound } from "../errors";
import type { Entitlements } from "./features";
import { resolveEntitlements } from "./resolve-entitlements";

/** Name of the in-process effective-entitlements cache on the invalidation bus. */
export const ENTITLEMENT_CACHE = "entitlements";

interface CachedEntitlements {
  values: Entitlements;
  /** Epoch ms when the earliest applied override expires (the answer changes then by itself). */
  validUntil: number;
}

export interface EntitlementCache {
  /** The project's effective entitlements (project override > org override > plan > default). */
  get(projectId: string, now?: number): Promise<Entitlements>;
  /** The same, synchronously from memory (a hit late in its TTL also reloads in the background); undefined when not cached (or an override just expired). */
  peek(projectId: string, now?: number): Entitlements | undefined;
  readonly cache: InvalidatingCache<CachedEntitlements>;
}

/**
 * Effective entitlements per project, served from memory on the hot path and dropped on every
 * replica by `invalidateEntitlements` when a plan, plan version, subscription or override changes.
 */
export function createEntitlementCache(opts: {
  db: PrismaClient;
  bus?: InvalidationBus;
  ttlMs?: number;
  log?: Logger;
}): EntitlementCache {
  const cache = new InvalidatingCache<CachedEntitlements>({
    name: ENTITLEMENT_CACHE,
    ttlMs: opts.ttlMs ?? 60_000,
    bus: opts.bus,
    log: opts.log,
    load: async (projectId) => {
      const project = await opts.db.project.findUnique({
        where: { id: projectId },
        select: { organizationId: true },
      });
      if (!project) throw notFound("Project");
      const resolved = await resolveEntitlements(opts.db, project.organizationId, projectId);
      let validUntil = Number.POSITIVE_INFINITY;
      for (const source of Object.values(resolved.sources)) {
        if (
          (source.kind === "project_override" || source.kind === "organization_override") &&
          source.expiresAt
        ) {
          validUntil = Math.min(validUntil, source.expiresAt.getTime());
        }
      }
      return { values: resolved.values, validUntil };
    },
  });
  return {
    cache,
    async get(projectId, now = Date.now()) {
      let hit = await cache.get(projectId);
      if (hit.validUntil <= now) {
        cache.invalidateLocal(projectId);
        hit = await cache.get(projectId);
      }
      return hit.values;
    },
    peek(projectId, now = Date.now()) {
      const hit = cache.cached(projectId);
      return hit && hit.validUntil > now ? hit.values : undefined;
    },
  };
}

/** Which cached entitlements a change affects. */
export type EntitlementScope = { projectId: string } | { organizationId: string } | "all";

/**
 * Makes every replica re-resolve entitlements after a change: a project override drops that
 * project; an organization override, subscription, plan or plan-version change drops everything
 * (rare, and one reload per project per replica is cheap).
 */
export async function invalidateEntitlements(
  deps: { redis?: RedisClient; config?: RedisTarget },
  scope: EntitlementScope,
): Promise<void> {
  const key = typeof scope === "object" && "projectId" in scope ? scope.projectId : "*";
  await publishInvalidation(deps, ENTITLEMENT_CACHE, key);
}

/** The versioned failover directive of spec §1, from effective entitlements. */
export function failoverDirective(values: Pick<Entitlements, "failover_tuning">): {
  version: "1";
  failover_tuning_allowed: boolean;
} {
  return { version: "1", failover_tuning_allowed: values.failover_tuning === true };
}
