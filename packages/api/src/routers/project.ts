import {
  createProject,
  createProjectInput,
  explainProjectEntitlements,
  getProject,
  listProjects,
} from "@breakwater/core";
import { z } from "zod";
import { orgProcedure, router } from "../init";

export const projectRouter = router({
  /** Projects of the active organization. */
  list: orgProcedure("viewer").query(({ ctx }) => listProjects(ctx.core, ctx.organization.id)),

  /** One project of the active organization; any other id is NOT_FOUND. */
  get: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => getProject(ctx.core, input.projectId)),

  /** Creates a project (name, mode, period limits) in the active organization; admins and up. */
  create: orgProcedure("admin")
    .input(createProjectInput.omit({ organizationId: true }))
    .mutation(({ ctx, input }) => createProject(ctx.core, { ...input, organizationId: ctx.organization.id })),

  /** "Why this value", read-only: each feature's effective value for the project and the layer that decided it. */
  entitlements: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => explainProjectEntitlements(ctx.core, input.projectId)),
});
