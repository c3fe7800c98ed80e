import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";
import type { ProjectDto } from "./create-project";
import { getProject } from "./list-tenancy";

export const updateProjectInput = z.object({
  projectId: z.string().min(1),
  name: z.string().trim().min(1, "Name is required").max(100, "Name is at most 100 characters"),
});
export type UpdateProjectInput = z.input<typeof updateProjectInput>;

/** Renames a project of the caller's organization (admins and up), with its audit row. */
export async function updateProject(ctx: Ctx, raw: UpdateProjectInput): Promise<ProjectDto> {
  const input = updateProjectInput.parse(raw);
  const project = await getProject(ctx, input.projectId);
  requireRole(ctx, "admin");
  if (project.name === input.name) return project;
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.project.updateMany({
      where: { id: project.id, archivedAt: null },
      data: { name: input.name },
    });
    if (count === 0) throw notFound("Project");
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "project.update",
      targetType: "project",
      targetId: project.id,
      before: { name: project.name },
      after: { name: input.name },
    });
  });
  return { ...project, name: input.name };
}
