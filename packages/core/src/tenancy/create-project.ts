import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { limitExceeded, notFound } from "../errors";
import { newId } from "../ids";

const usd = z.coerce.number().finite().positive("must be greater than 0").max(1_000_000_000, "is too large");

export const createProjectInput = z.object({
  organizationId: z.string().min(1),
  name: z.string().trim().min(1, "Name is required").max(100),
  mode: z.enum(["alert_only", "hard_deny"]).default("alert_only"),
  limits: z
    .object({ daily: usd.optional(), weekly: usd.optional(), monthly: usd.optional() })
    .default({ monthly: 100 })
    .refine((l) => l.daily !== undefined || l.weekly !== undefined || l.monthly !== undefined, {
      message: "At least one period limit (daily, weekly, monthly) is required",
    }),
});
export type CreateProjectInput = z.input<typeof createProjectInput>;

export interface ProjectDto {
  id: string;
  organizationId: string;
  name: string;
  mode: "alert_only" | "hard_deny";
  limits: { daily: number | null; weekly: number | null; monthly: number | null };
  createdAt: string;
}

/**
 * Creates a project with its period limits in one transaction with its audit row. Requires the admin
 * role; refuses past the plan's `max_projects` (LIMIT_EXCEEDED).
 */
export async function createProject(ctx: Ctx, raw: CreateProjectInput): Promise<ProjectDto> {
  const input = createProjectInput.parse(raw);
  if (ctx.organizationId && ctx.organizationId !== input.organizationId) throw notFound("Organization");
  const org = await ctx.db.organization.findUnique({ where: { id: input.organizationId } });
  if (!org) throw notFound("Organization");
  requireRole(ctx, "admin");

  const ent = await resolveEntitlements(ctx.db, org.id);
  const id = newId("proj");
  const project = await ctx.db.$transaction(async (tx) => {
    // Serialise project creation per organization so two concurrent creates cannot both pass the limit.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`projects:${org.id}`}))`;
    const max = ent.values.max_projects;
    if (max !== null) {
      const count = await tx.project.count({ where: { organizationId: org.id, archivedAt: null } });
      if (count >= max) {
        throw limitExceeded(`Your plan allows ${max} project${max === 1 ? "" : "s"}; upgrade to add more`);
      }
    }
    const created = await tx.project.create({
      data: { id, organizationId: org.id, name: input.name, mode: input.mode },
    });
    const periods = (["daily", "weekly", "monthly"] as const).filter((p) => input.limits[p] !== undefined);
    await tx.budgetLimit.createMany({
      data: periods.map((period) => ({
        id: newId("lim"),
        projectId: id,
        period,
        limitUsd: input.limits[period]!.toString(),
      })),
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: org.id,
      action: "project.create",
      targetType: "project",
      targetId: id,
      after: { name: input.name, mode: input.mode, limits: input.limits },
    });
    return created;
  });
  return {
    id: project.id,
    organizationId: project.organizationId,
    name: project.name,
    mode: project.mode,
    limits: {
      daily: input.limits.daily ?? null,
      weekly: input.limits.weekly ?? null,
      monthly: input.limits.monthly ?? null,
    },
    createdAt: project.createdAt.toISOString(),
  };
}
