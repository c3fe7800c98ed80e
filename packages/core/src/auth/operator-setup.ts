import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "@breakwater/db";
import { recordAudit } from "../audit/record-audit";
import type { Deps } from "../context";
import { DomainError } from "../errors";
import { newId } from "../ids";

/** How long a printed setup link stays valid. */
export const SETUP_TOKEN_TTL_MS = 24 * 3_600_000;

const hash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const setupLock = (tx: { $executeRaw: PrismaClient["$executeRaw"] }) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('breakwater:operator-setup'))`;

/**
 * A fresh one-time link token while the installation has no operator, else null. 256 random bits,
 * only its SHA-256 stored, valid for `ttlMs`; every earlier unused token is discarded, so only the
 * link printed last works.
 */
export async function issueOperatorSetupToken(
  deps: Pick<Deps, "db">,
  opts: { ttlMs?: number; now?: Date } = {},
): Promise<{ token: string; expiresAt: Date } | null> {
  const now = opts.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + (opts.ttlMs ?? SETUP_TOKEN_TTL_MS));
  return deps.db.$transaction(async (tx) => {
    await setupLock(tx);
    if ((await tx.user.count({ where: { isOperator: true } })) > 0) return null;
    await tx.operatorSetupToken.deleteMany({ where: { usedAt: null } });
    await tx.operatorSetupToken.create({ data: { id: newId("stp"), tokenHash: hash(token), expiresAt } });
    return { token, expiresAt };
  });
}

export type SetupTokenState = "valid" | "unknown" | "used" | "expired" | "operator_exists";

/** What a setup link is worth now (the /setup page shows the matching message). */
export async function checkOperatorSetupToken(
  deps: Pick<Deps, "db">,
  token: string,
  now = new Date(),
): Promise<SetupTokenState> {
  const row = await deps.db.operatorSetupToken.findUnique({ where: { tokenHash: hash(token) } });
  if (!row) return "unknown";
  if (row.usedAt) return "used";
  if (row.expiresAt <= now) return "expired";
  if ((await deps.db.user.count({ where: { isOperator: true } })) > 0) return "operator_exists";
  return "valid";
}

const refusals: Record<Exclude<SetupTokenState, "valid">, string> = {
  unknown: "This setup link is not valid. Restart Breakwater to print a new one.",
  used: "This setup link was already used.",
  expired: "This setup link has expired. Restart Breakwater to print a new one.",
  operator_exists: "This installation already has an operator.",
};

/**
 * Makes `userId` the operator with the setup link `token`: single use (marked used in the same
 * transaction), refused once expired or once any operator exists, audited. Concurrent redemptions
 * serialise on one advisory lock, so exactly one wins.
 */
export async function redeemOperatorSetupToken(
  deps: Pick<Deps, "db">,
  input: { token: string; userId: string },
  now = new Date(),
): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await setupLock(tx);
    const row = await tx.operatorSetupToken.findUnique({ where: { tokenHash: hash(input.token) } });
    let state: SetupTokenState = "valid";
    if (!row) state = "unknown";
    else if (row.usedAt) state = "used";
    else if (row.expiresAt <= now) state = "expired";
    else if ((await tx.user.count({ where: { isOperator: true } })) > 0) state = "operator_exists";
    if (state !== "valid" || !row)
      throw new DomainError("FORBIDDEN", refusals[state as keyof typeof refusals]);
    await tx.operatorSetupToken.update({
      where: { id: row.id },
      data: { usedAt: now, usedById: input.userId },
    });
    await tx.user.update({ where: { id: input.userId }, data: { isOperator: true } });
    await recordAudit(
      tx,
      { type: "system", name: "operator-setup-link" },
      {
        organizationId: null,
        action: "user.operator_granted",
        targetType: "user",
        targetId: input.userId,
        before: { isOperator: false },
        after: { isOperator: true, reason: "one-time setup link" },
      },
    );
  });
}
