import { getUsageOverview, getUsageOverviewInput, type UsageOverview } from "@breakwater/core";
import { orgProcedure, router } from "../init";

/** The contract of `usage.overview` (money as decimal strings; unpriced usage in tokens, never $0). */
export type { UsageOverview };

/** Usage and analytics pages: served from the hourly rollups the worker keeps current. */
export const usageRouter = router({
  /**
   * Spend, calls, latency, failovers, tags, runs and limits of one project (`projectId`) or of the
   * whole active organization over a range of UTC days. Another organization's project is NOT_FOUND.
   */
  overview: orgProcedure("viewer")
    .input(getUsageOverviewInput)
    .query(({ ctx, input }): Promise<UsageOverview> => getUsageOverview(ctx.core, input)),
});
