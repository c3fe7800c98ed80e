import { recordAudit } from "../audit/record-audit";
import type { Deps } from "../context";

/**
 * Makes `userId` the deployment operator if no operator exists yet; returns true when it did.
 * Race-safe: concurrent first sign-ups serialise on one advisory lock, so exactly one wins.
 */
export async function claimFirstOperator(deps: Pick<Deps, "db">, userId: string): Promise<boolean> {
  return deps.db.$transaction(async (tx) => {
    // A transaction-scoped lock: the second sign-up waits here and, once the first commits, its
    // NOT EXISTS (a fresh snapshot under READ COMMITTED) sees the operator and updates nothing.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('breakwater:first-operator'))`;
    const updated = await tx.$executeRaw`
      UPDATE users SET is_operator = true, updated_at = now()
      WHERE id = ${userId} AND NOT EXISTS (SELECT 1 FROM users WHERE is_operator)`;
    if (updated === 1) {
      await recordAudit(
        tx,
        { type: "system", name: "first-operator" },
        {
          organizationId: null,
          action: "user.operator_granted",
          targetType: "user",
          targetId: userId,
          after: { isOperator: true, reason: "first account on this installation" },
        },
      );
    }
    return updated === 1;
  });
}
