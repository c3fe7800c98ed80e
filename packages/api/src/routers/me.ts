import { resolveDashboardCaller, roleAtLeast } from "@breakwater/core";
import { publicProcedure, router } from "../init";

export const meRouter = router({
  /** The signed-in user, the organization the dashboard acts in and what they may do there; null when signed out. */
  get: publicProcedure.query(async ({ ctx }) => {
    if (!ctx.session) return null;
    const caller = await resolveDashboardCaller(ctx.deps, {
      userId: ctx.session.userId,
      activeOrganizationId: ctx.session.activeOrganizationId,
    });
    if (!caller) return null;
    const at = (min: "member" | "admin" | "owner") =>
      caller.user.isOperator || roleAtLeast(caller.role ?? undefined, min);
    return {
      ...caller,
      can: {
        manageProjects: at("admin"),
        manageKeys: at("admin"),
        manageRules: at("member"),
        manageBilling: at("owner"),
        manageMembers: at("admin"),
        readAudit: at("admin"),
      },
    };
  }),
});
