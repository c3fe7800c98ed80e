import { getFleetOverview, getProviderHealth, getProviderHealthInput } from "@breakwater/core";
import { orgProcedure, router } from "../init";

/** Fleet health pages: the projects × providers grid and a provider's page. */
export const fleetRouter = router({
  /** Status per project × provider of the active organization, stale instances excluded. */
  overview: orgProcedure("viewer").query(({ ctx }) =>
    getFleetOverview(ctx.core, { organizationId: ctx.organization.id }),
  ),

  /** Instances, transition timeline, open/recent episodes and uptime bars of one provider in one project. */
  provider: orgProcedure("viewer")
    .input(getProviderHealthInput.omit({ now: true }))
    .query(({ ctx, input }) => getProviderHealth(ctx.core, input)),
});
