import type { Tx } from "@breakwater/db";
import { type Ctx, isOperatorActor, type Role, roleAtLeast } from "../context";
import { forbidden, notFound } from "../errors";

/**
 * Serialises membership changes of one organization: the organization row is locked (NO KEY
 * UPDATE, so inserts that merely reference it are not blocked) until the transaction ends. Every
 * rule that counts owners runs after this lock, so two owners removing or demoting each other at
 * once are decided one after the other and can never leave the organization without an owner.
 */
export async function lockMemberships(tx: Tx, organizationId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`;
  if (rows.length === 0) throw notFound("Organization");
}

/**
 * The caller's role as it is now (read under the lock, not as it was when the request started):
 * system and operators act as owners; a user removed or demoted meanwhile gets what they have left.
 */
export async function currentRole(tx: Tx, ctx: Ctx, organizationId: string, min: Role): Promise<Role> {
  if (isOperatorActor(ctx.actor)) return "owner";
  // A management key acts with the role its scope grants in its own organization.
  if (ctx.actor.type === "management_key") {
    if (ctx.organizationId !== organizationId || !roleAtLeast(ctx.role, min)) {
      throw forbidden(`This needs the ${min} role or higher`);
    }
    return ctx.role!;
  }
  if (ctx.actor.type !== "user") throw forbidden();
  const me = await tx.member.findUnique({
    where: { organizationId_userId: { organizationId, userId: ctx.actor.userId } },
    select: { role: true },
  });
  const role = me?.role as Role | undefined;
  if (!role || !roleAtLeast(role, min)) throw forbidden(`This needs the ${min} role or higher`);
  return role;
}

/** The organization of a tenant-scoped call (the dashboard always has one). */
export function tenantOf(ctx: Ctx): string {
  if (!ctx.organizationId) throw notFound("Organization");
  return ctx.organizationId;
}

export const LAST_OWNER_MESSAGE =
  "An organization needs at least one owner: make another member an owner first.";
