import { z } from "zod";
import { invalidateApiKey } from "../api-keys/invalidate-api-key";
import { recordAudit } from "../audit/record-audit";
import { invalidateProjectBudget } from "../budgets/budget-runtime";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";
import { getProject } from "./list-tenancy";

export const archiveProjectInput = z.object({ projectId: z.string().min(1) });
export type ArchiveProjectInput = z.input<typeof archiveProjectInput>;

/**
 * Deletes a project as the dashboard and API see it: it is archived (its usage history stays for
 * the organization's reports), drops out of every listing, no longer counts against the plan's
 * project limit, and its keys stop authenticating on every replica. Admins and up; a project of
 * another tenant, or one already deleted, is NOT_FOUND.
 */
export async function archiveProject(ctx: Ctx, raw: ArchiveProjectInput): Promise<void> {
  const input = archiveProjectInput.parse(raw);
  const project = await getProject(ctx, input.projectId);
  requireRole(ctx, "admin");
  const keys = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.project.updateMany({
      where: { id: project.id, archivedAt: null },
      data: { archivedAt: new Date() },
    });
    if (count === 0) throw notFound("Project");
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "project.delete",
      targetType: "project",
      targetId: project.id,
      before: { name: project.name },
    });
    return tx.apiKey.findMany({ where: { projectId: project.id, revokedAt: null }, select: { hash: true } });
  });
  // Every replica drops the project's keys from its auth cache (they now resolve as archived).
  for (const k of keys) {
    await invalidateApiKey(ctx, k.hash).catch((err: unknown) =>
      ctx.log.warn(
        { err, projectId: project.id },
        "archived project's key not invalidated; cache TTL applies",
      ),
    );
  }
  await invalidateProjectBudget(ctx, project.id);
}
