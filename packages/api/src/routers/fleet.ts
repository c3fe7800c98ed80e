import {
  type FleetChange,
  getFleetOverview,
  getFleetOverviewInput,
  getProviderHealth,
  getProviderHealthInput,
} from "@breakwater/core";
import { TRPCError } from "@trpc/server";
import { orgProcedure, router } from "../init";

/** What a live page receives: a change of its own organization, or a marker to refetch everything. */
export type FleetLiveMessage =
  | { type: "ready" }
  | { type: "resync" }
  | ({ type: "change" } & Omit<FleetChange, "organizationId">);

/** Changes queued for one slow stream before it is told to refetch instead. */
const MAX_QUEUED = 500;

/** Fleet health pages: the projects × providers grid, a provider's page, and their live updates. */
export const fleetRouter = router({
  /** Status per project × provider of the active organization, stale instances excluded, worst first. */
  overview: orgProcedure("viewer")
    .input(getFleetOverviewInput.pick({ projectIds: true, providers: true }).optional())
    .query(({ ctx, input }) => getFleetOverview(ctx.core, { ...input, organizationId: ctx.organization.id })),

  /** Instances, episodes, timeline, uptime bars and failover feed of one provider in one project. */
  provider: orgProcedure("viewer")
    .input(getProviderHealthInput.omit({ now: true }))
    .query(({ ctx, input }) => getProviderHealth(ctx.core, input)),

  /**
   * Visible fleet changes of the caller's active organization, over server-sent events, fed by the
   * `bw:fleet` Redis channel (so a report recorded by any replica reaches every page). Never another
   * organization's: the listener is registered under the organization resolved from the session.
   */
  live: orgProcedure("viewer").subscription(async function* ({ ctx, signal }) {
    const hub = ctx.fleetLive;
    if (!hub) throw new TRPCError({ code: "PRECONDITION_FAILED", message: "Live updates are not available" });
    const queue: FleetLiveMessage[] = [];
    let overflow = false;
    let wake: (() => void) | undefined;
    const unsubscribe = await hub.subscribe(
      ctx.organization.id,
      ({ organizationId: _org, ...change }) => {
        if (queue.length >= MAX_QUEUED) overflow = true;
        else queue.push({ type: "change", ...change });
        wake?.();
      },
      undefined,
      // The replica's Redis subscription came back after a drop: what was published meanwhile is
      // lost, so the page refetches (the same message as an overflowing queue).
      () => {
        overflow = true;
        wake?.();
      },
    );
    try {
      yield { type: "ready" } as FleetLiveMessage;
      while (!signal?.aborted) {
        if (queue.length === 0 && !overflow) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            signal?.addEventListener("abort", () => resolve(), { once: true });
          });
          wake = undefined;
        }
        if (overflow) {
          overflow = false;
          queue.length = 0;
          yield { type: "resync" } as FleetLiveMessage;
        }
        while (queue.length > 0) yield queue.shift() as FleetLiveMessage;
      }
    } finally {
      unsubscribe();
    }
  }),
});
