import {
  type FleetChange,
  getFleetOverview,
  getFleetOverviewInput,
  getIncidentSettings,
  getIncidentSettingsInput,
  getProviderHealth,
  getProviderHealthInput,
  listFailoverFeed,
  listFailoverFeedInput,
  listIncidents,
  listIncidentsInput,
  listOpenIncidents,
  listProviderInstances,
  listProviderInstancesInput,
  updateIncidentSettings,
  updateIncidentSettingsInput,
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

  /** Status, counts, episodes, timeline and uptime bars of one provider in one project. */
  provider: orgProcedure("viewer")
    .input(getProviderHealthInput.omit({ now: true }))
    .query(({ ctx, input }) => getProviderHealth(ctx.core, input)),

  /** The provider page's instance table, a keyset page at a time (an infinite query: `cursor`). */
  providerInstances: orgProcedure("viewer")
    .input(listProviderInstancesInput.omit({ now: true }))
    .query(({ ctx, input }) => listProviderInstances(ctx.core, input)),

  /** The provider page's failover feed of the last 24 h, newest first, a keyset page at a time. */
  failoverFeed: orgProcedure("viewer")
    .input(listFailoverFeedInput.omit({ now: true }))
    .query(({ ctx, input }) => listFailoverFeed(ctx.core, input)),

  /** Open provider incidents of the active organization, newest first (the overview shows them first). */
  openIncidents: orgProcedure("viewer").query(({ ctx }) =>
    listOpenIncidents(ctx.core, { organizationId: ctx.organization.id }),
  ),

  /** Incidents of the last 30 or 90 days with MTTR per provider (optionally one project × provider). */
  incidents: orgProcedure("viewer")
    .input(listIncidentsInput.omit({ organizationId: true, now: true }).default({ days: 30 }))
    .query(({ ctx, input }) => listIncidents(ctx.core, { ...input, organizationId: ctx.organization.id })),

  /** A project's incident threshold, minimum duration and quiet period. */
  incidentSettings: orgProcedure("viewer")
    .input(getIncidentSettingsInput)
    .query(({ ctx, input }) => getIncidentSettings(ctx.core, input)),

  /** Edits them (members and up); refused input names the field and changes nothing. */
  updateIncidentSettings: orgProcedure("member")
    .input(updateIncidentSettingsInput)
    .mutation(({ ctx, input }) => updateIncidentSettings(ctx.core, input)),

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
    // One abort listener for the stream's life, not one per wait: a listener added at every wait
    // stayed until the stream ended (11 waits set off Node's MaxListenersExceededWarning).
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      yield { type: "ready" } as FleetLiveMessage;
      while (!signal?.aborted) {
        if (queue.length === 0 && !overflow) {
          await new Promise<void>((resolve) => {
            wake = resolve;
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
      signal?.removeEventListener("abort", onAbort);
      unsubscribe();
    }
  }),
});
