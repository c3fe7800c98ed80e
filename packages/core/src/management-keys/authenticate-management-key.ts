import type { PrismaClient } from "@breakwater/db";
import { hashApiKey } from "../api-keys/api-key-format";
import type { Ctx, Deps, ManagementScope, Role } from "../context";
import { bearerManagementKey } from "./management-key-format";

/** The caller a valid management key resolves to. */
export interface ManagementCaller {
  keyId: string;
  name: string;
  scope: ManagementScope;
  /** Null for operator keys. */
  organizationId: string | null;
}

/**
 * The management key behind an `Authorization` header, or null for anything that must be a 401:
 * malformed (an SDK key included), unknown, revoked, expired, of a deleted organization, or an
 * operator key whose creator is no longer an operator. One indexed lookup per request, no cache,
 * so a revocation holds from the next request on every replica.
 */
export async function authenticateManagementKey(
  deps: { db: PrismaClient },
  authorization: string | null,
  now = Date.now(),
): Promise<ManagementCaller | null> {
  const key = bearerManagementKey(authorization);
  if (!key) return null;
  const row = await deps.db.managementKey.findUnique({ where: { hash: hashApiKey(key) } });
  if (!row || row.revokedAt) return null;
  if (row.expiresAt && row.expiresAt.getTime() <= now) return null;
  if (row.scope === "operator") {
    if (row.organizationId !== null || !row.createdById) return null;
    const creator = await deps.db.user.findUnique({
      where: { id: row.createdById },
      select: { isOperator: true },
    });
    if (!creator?.isOperator) return null;
  } else if (row.organizationId === null) {
    return null;
  }
  return { keyId: row.id, name: row.name, scope: row.scope, organizationId: row.organizationId };
}

/** The role an organization key acts with: `write` keys as admins, `read` keys as viewers. */
export function roleOfScope(scope: ManagementScope): Role | undefined {
  return scope === "write" ? "admin" : scope === "read" ? "viewer" : undefined;
}

/** A core context acting as a management key (its organization and role, or the operator). */
export function managementCtx(deps: Deps, caller: ManagementCaller): Ctx {
  return {
    ...deps,
    actor: { type: "management_key", keyId: caller.keyId, name: caller.name, scope: caller.scope },
    organizationId: caller.organizationId ?? undefined,
    role: roleOfScope(caller.scope),
  };
}
