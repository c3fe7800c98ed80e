import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { conflict, DomainError, notFound } from "../errors";
import { newId } from "../ids";
import { parseInput, requireOperator } from "../operator/operator-input";

export interface OperatorUserDto {
  id: string;
  email: string;
  name: string;
  isOperator: boolean;
  createdAt: string;
}

export const createUserInput = z.object({
  email: z.string().trim().toLowerCase().email("A valid email address is required"),
  name: z.string().trim().min(1, "Name is required").max(100),
  password: z.string().min(8, "Password: at least 8 characters").max(128, "Password: at most 128 characters"),
  operator: z.boolean().default(false),
});

/**
 * Creates a user who signs in with email and password (the CLI's `bw user create`), optionally
 * as an operator. `hashPassword` is the dashboard sign-in's own hash (better-auth's), so the
 * account signs in like one made through the sign-up form. Operators and the system only; audited.
 */
export async function createUserWithPassword(
  ctx: Ctx,
  raw: z.input<typeof createUserInput>,
  hashPassword: (password: string) => Promise<string>,
): Promise<OperatorUserDto> {
  requireOperator(ctx);
  const input = parseInput(createUserInput, raw);
  if (await ctx.db.user.findUnique({ where: { email: input.email } })) {
    throw new DomainError("CONFLICT", `A user with the email ${input.email} already exists`, {
      fieldErrors: { email: "Already registered" },
    });
  }
  const hash = await hashPassword(input.password);
  const id = newId("user");
  const user = await ctx.db.$transaction(async (tx) => {
    const created = await tx.user.create({
      data: { id, email: input.email, name: input.name, isOperator: input.operator, emailVerified: false },
    });
    await tx.account.create({
      data: { id: newId("acct"), userId: id, accountId: id, providerId: "credential", password: hash },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: "user.create",
      targetType: "user",
      targetId: id,
      after: { email: input.email, name: input.name, isOperator: input.operator },
    });
    return created;
  });
  return userDto(user);
}

function userDto(u: {
  id: string;
  email: string;
  name: string;
  isOperator: boolean;
  createdAt: Date;
}): OperatorUserDto {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    isOperator: u.isOperator,
    createdAt: u.createdAt.toISOString(),
  };
}

/**
 * Users of the installation with their operator flag (operators first, then by sign-up): every
 * operator, plus at most `limit` users whose email or name contains `search` (case-insensitive).
 */
export async function listUsersForOperator(
  ctx: Ctx,
  opts: { search?: string; limit?: number } = {},
): Promise<OperatorUserDto[]> {
  requireOperator(ctx);
  const search = (opts.search ?? "").trim().slice(0, 200);
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const [operators, others] = await Promise.all([
    ctx.db.user.findMany({ where: { isOperator: true }, orderBy: { createdAt: "asc" } }),
    ctx.db.user.findMany({
      where: {
        isOperator: false,
        ...(search
          ? {
              OR: [
                { email: { contains: search, mode: "insensitive" as const } },
                { name: { contains: search, mode: "insensitive" as const } },
              ],
            }
          : {}),
      },
      orderBy: { createdAt: "asc" },
      take: limit,
    }),
  ]);
  return [...operators, ...others].map(userDto);
}

/**
 * Grants or revokes the operator role of a user (by id or email). Operators only; audited. The
 * last operator cannot be revoked (the installation would have nobody to manage plans).
 */
export async function setOperatorRole(
  ctx: Ctx,
  input: { user: string; isOperator: boolean },
): Promise<OperatorUserDto> {
  requireOperator(ctx);
  const updated = await ctx.db.$transaction(async (tx) => {
    // Serialises grants and revocations so two revokes cannot leave the installation without one.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('breakwater:operator-role'))`;
    const user = await tx.user.findFirst({
      where: { OR: [{ id: input.user }, { email: input.user.toLowerCase() }] },
    });
    if (!user) throw notFound("User");
    if (user.isOperator === input.isOperator) return user;
    if (!input.isOperator && (await tx.user.count({ where: { isOperator: true } })) <= 1) {
      throw conflict("This is the last operator of the installation; grant the role to someone else first");
    }
    const next = await tx.user.update({ where: { id: user.id }, data: { isOperator: input.isOperator } });
    await recordAudit(tx, ctx.actor, {
      organizationId: null,
      action: input.isOperator ? "user.operator_granted" : "user.operator_revoked",
      targetType: "user",
      targetId: user.id,
      before: { isOperator: user.isOperator },
      after: { isOperator: input.isOperator },
    });
    return next;
  });
  return userDto(updated);
}
