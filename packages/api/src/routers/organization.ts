import { createOrganization, listMemberships } from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { APIError } from "better-auth/api";
import { z } from "zod";
import type { TrpcContext } from "../context";
import { authedProcedure, router } from "../init";

/** Points the session at an organization through better-auth (which checks membership). */
export async function setActive(ctx: TrpcContext, organizationId: string) {
  try {
    await ctx.auth.api.setActiveOrganization({ headers: ctx.headers, body: { organizationId } });
  } catch (err) {
    // Not a member (or no such organization): the same answer either way, so existence never leaks.
    if (err instanceof APIError)
      throw new TRPCError({ code: "NOT_FOUND", message: "Organization not found" });
    throw err;
  }
}

export const organizationRouter = router({
  /** The caller's organizations with their role in each. */
  listMine: authedProcedure.query(({ ctx }) => listMemberships(ctx.core)),

  /** Creates an organization on the free plan with the caller as owner, and makes it active. */
  create: authedProcedure
    .input(z.object({ name: z.string().trim().min(1, "Name is required").max(100) }))
    .mutation(async ({ ctx, input }) => {
      const org = await createOrganization(ctx.core, { name: input.name, planSlug: "free" });
      await setActive(ctx, org.id);
      return org;
    }),

  /** Switches the session's active organization (must be one of the caller's). */
  setActive: authedProcedure
    .input(z.object({ organizationId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      await setActive(ctx, input.organizationId);
      return { organizationId: input.organizationId };
    }),
});
