import type { Tx } from "@breakwater/db";
import { z } from "zod";
import type { Deps } from "../context";
import { invalid } from "../errors";
import type { BreakerClosedEvent, BreakerOpenedEvent } from "../events/breaker-events";
import { newId } from "../ids";
import { evaluateIncidentAfterReport } from "../incidents/evaluate-provider-incident";
import { enqueueWebhookDeliveries, recordWebhookEvent } from "../webhooks/record-webhook-event";
import { type BreakerEventContext, loadBreakerEventContext } from "./breaker-event-context";
import { CIRCUIT_STATES, type CircuitState, durationSeconds, fleetDashboardUrl } from "./breaker-state";
import { type FleetChange, publishFleetChanges } from "./fleet-live";

/** How far ahead of this server's clock a report may be dated (SDK clocks drift; more is refused). */
export const BREAKER_REPORT_MAX_FUTURE_MS = 5 * 60_000;

export const breakerReportInput = z.object({
  /** The project the caller's API key belongs to (the wire handler checks the path against it). */
  projectId: z.string().min(1),
  provider: z.string().min(1).max(64),
  state: z.enum(CIRCUIT_STATES),
  failureCount: z.number().int().min(0),
  successCount: z.number().int().min(0),
  reportedAt: z.date(),
  sdkInstanceId: z.string().min(1).max(100),
});
export type BreakerReportInput = z.input<typeof breakerReportInput>;

export interface BreakerReportResult {
  /** False when the stored snapshot is as new or newer: duplicates and late reports change nothing. */
  applied: boolean;
  /** True when the state changed and a transition row was written. */
  transition: boolean;
  /** Webhook events this report created (deliverable or not). */
  eventIds: string[];
  /** The snapshot as committed (after this report, or as found when it changed nothing). */
  stored: StoredSnapshot;
}

/** What the latest snapshot of one (project, provider, instance) holds after a report. */
export interface StoredSnapshot {
  state: CircuitState;
  reportedAt: Date;
  receivedAt: Date;
}

interface SnapshotRow {
  state: CircuitState;
  reported_at: Date;
  open_episode_id: string | null;
  state_since: Date | null;
  received_at: Date;
}

async function lockSnapshot(
  tx: Tx,
  i: z.output<typeof breakerReportInput>,
): Promise<SnapshotRow | undefined> {
  const rows = await tx.$queryRaw<SnapshotRow[]>`
    SELECT state::text AS state, reported_at, open_episode_id, state_since, received_at
    FROM breaker_snapshots
    WHERE project_id = ${i.projectId} AND provider = ${i.provider} AND sdk_instance_id = ${i.sdkInstanceId}
    FOR UPDATE`;
  return rows[0];
}

/**
 * Whether a breaker event is delivered: the organization's effective breaker_webhooks at this
 * moment. A closing event is also delivered when its opening one was, so a receiver that was
 * paged always hears the episode end, even after a downgrade.
 */
export async function breakerEventDeliverable(
  tx: Tx,
  entitled: boolean,
  closingEpisodeId?: string,
): Promise<boolean> {
  if (entitled) return true;
  if (!closingEpisodeId) return false;
  const opened = await tx.webhookEvent.findFirst({
    where: { episodeId: closingEpisodeId, type: "circuit_breaker_opened", deliverable: true },
    select: { id: true },
  });
  return opened !== null;
}

/**
 * Records one breaker snapshot from an SDK instance in one transaction: the latest snapshot per
 * (project, provider, instance) moves only forward in reported_at (a row lock serialises
 * concurrent reports, so a duplicate can never pass twice), a state change writes a transition,
 * an episode opens on open/half_open with none open and closes on closed, and an opening or
 * closing writes its webhook event + outbox row. Deliveries are enqueued after commit.
 */
export async function recordBreakerReport(deps: Deps, raw: BreakerReportInput): Promise<BreakerReportResult> {
  const i = breakerReportInput.parse(raw);
  const now = new Date();
  if (i.reportedAt.getTime() > now.getTime() + BREAKER_REPORT_MAX_FUTURE_MS) {
    throw invalid("reported_at must not be more than 5 minutes in the future");
  }

  const result = await deps.db.$transaction(
    async (
      tx,
    ): Promise<
      BreakerReportResult & { deliver: string[]; visible?: FleetChange["kind"]; from?: FleetChange["from"] }
    > => {
      let prev = await lockSnapshot(tx, i);
      const firstReport = !prev;
      if (!prev) {
        // First report of this instance for this provider. ON CONFLICT DO NOTHING makes a concurrent
        // first report wait for ours and then see our row, never insert a second one.
        const inserted = await tx.breakerSnapshot.createManyAndReturn({
          data: [
            {
              projectId: i.projectId,
              provider: i.provider,
              sdkInstanceId: i.sdkInstanceId,
              state: i.state,
              failureCount: i.failureCount,
              successCount: i.successCount,
              reportedAt: i.reportedAt,
              stateSince: i.reportedAt,
              receivedAt: now,
              firstSeenAt: now,
            },
          ],
          skipDuplicates: true,
          select: { projectId: true },
        });
        if (inserted.length === 0) {
          prev = await lockSnapshot(tx, i);
          if (!prev) throw new Error("breaker snapshot vanished while locked");
        }
      }
      if (prev && i.reportedAt.getTime() <= prev.reported_at.getTime()) {
        return {
          applied: false,
          transition: false,
          eventIds: [],
          deliver: [],
          stored: { state: prev.state, reportedAt: prev.reported_at, receivedAt: prev.received_at },
        };
      }

      const prevState = prev?.state ?? null;
      const changed = prevState !== i.state;
      const stateSince = changed ? i.reportedAt : (prev?.state_since ?? i.reportedAt);
      let openEpisodeId = prev?.open_episode_id ?? null;
      let transitionEpisodeId = openEpisodeId;
      const events: { id: string; deliverable: boolean }[] = [];

      // Time spent Recovering inside an episode, credited when the breaker leaves half_open.
      const recoveringSecs =
        prevState === "half_open" && changed && prev?.state_since
          ? Math.max(0, (i.reportedAt.getTime() - prev.state_since.getTime()) / 1000)
          : 0;

      let project: BreakerEventContext | undefined;
      const loadProject = async () => {
        project ??= await loadBreakerEventContext(tx, i.projectId, now);
        return project;
      };
      const base = async (eventId: string, episodeId: string, openedAt: Date) => {
        const p = await loadProject();
        return {
          event_id: eventId,
          episode_id: episodeId,
          project_id: i.projectId,
          project_name: p.projectName,
          provider: i.provider,
          sdk_instance_id: i.sdkInstanceId,
          previous_state: prevState,
          failure_count: i.failureCount,
          success_count: i.successCount,
          reported_at: i.reportedAt.toISOString(),
          opened_at: openedAt.toISOString(),
          dashboard_url: fleetDashboardUrl(deps.config.PUBLIC_URL, i.projectId, i.provider),
        };
      };

      if (i.state !== "closed" && !openEpisodeId) {
        const episodeId = newId("ep");
        await tx.breakerEpisode.create({
          data: {
            id: episodeId,
            projectId: i.projectId,
            provider: i.provider,
            sdkInstanceId: i.sdkInstanceId,
            openedAt: i.reportedAt,
            lastState: i.state,
          },
        });
        openEpisodeId = episodeId;
        transitionEpisodeId = episodeId;
        const p = await loadProject();
        const eventId = newId("evt");
        const deliverable = await breakerEventDeliverable(tx, p.breakerWebhooks);
        const payload: BreakerOpenedEvent = {
          type: "circuit_breaker_opened",
          timestamp: now.toISOString(),
          data: { ...(await base(eventId, episodeId, i.reportedAt)), state: i.state },
        };
        await recordWebhookEvent(tx, {
          id: eventId,
          organizationId: p.organizationId,
          projectId: i.projectId,
          episodeId,
          payload,
          deliverable,
          now,
        });
        events.push({ id: eventId, deliverable });
      } else if (i.state !== "closed" && openEpisodeId && changed) {
        // open ↔ half_open inside an episode: recorded (Recovering), fires nothing.
        await tx.breakerEpisode.update({
          where: { id: openEpisodeId },
          data: { lastState: i.state, recoveringSecs: { increment: recoveringSecs } },
        });
      } else if (i.state === "closed" && openEpisodeId) {
        const episode = await tx.breakerEpisode.update({
          where: { id: openEpisodeId },
          data: {
            closedAt: i.reportedAt,
            resolution: "recovered",
            lastState: "closed",
            recoveringSecs: { increment: recoveringSecs },
          },
        });
        const p = await loadProject();
        const eventId = newId("evt");
        const deliverable = await breakerEventDeliverable(tx, p.breakerWebhooks, openEpisodeId);
        const payload: BreakerClosedEvent = {
          type: "circuit_breaker_closed",
          timestamp: now.toISOString(),
          data: {
            ...(await base(eventId, openEpisodeId, episode.openedAt)),
            state: "closed",
            closed_at: i.reportedAt.toISOString(),
            duration_seconds: durationSeconds(episode.openedAt, i.reportedAt),
            resolution: "recovered",
          },
        };
        await recordWebhookEvent(tx, {
          id: eventId,
          organizationId: p.organizationId,
          projectId: i.projectId,
          episodeId: openEpisodeId,
          payload,
          deliverable,
          now,
        });
        events.push({ id: eventId, deliverable });
        openEpisodeId = null;
      }

      // The snapshot moves forward, and a state change is recorded, in one statement.
      const transitionId = changed ? newId("tr") : null;
      await tx.$executeRaw`
        WITH transition AS (
          INSERT INTO breaker_transitions
            (id, project_id, provider, sdk_instance_id, from_state, to_state, failure_count, success_count,
             reported_at, recorded_at, episode_id)
          SELECT ${transitionId}, ${i.projectId}, ${i.provider}, ${i.sdkInstanceId}, ${prevState}::"CircuitState",
                 ${i.state}::"CircuitState", ${i.failureCount}, ${i.successCount}, ${i.reportedAt}, ${now},
                 ${transitionEpisodeId}
          WHERE ${changed}
        )
        UPDATE breaker_snapshots
        SET state = ${i.state}::"CircuitState", failure_count = ${i.failureCount}, success_count = ${i.successCount},
            reported_at = ${i.reportedAt}, received_at = ${now}, state_since = ${stateSince},
            open_episode_id = ${openEpisodeId}
        WHERE project_id = ${i.projectId} AND provider = ${i.provider} AND sdk_instance_id = ${i.sdkInstanceId}`;
      // What an open fleet page would show differently: heartbeats and count-only changes are not pushed.
      const staleCutoff = now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000;
      const visible: FleetChange["kind"] | undefined = firstReport
        ? "new_instance"
        : changed
          ? "transition"
          : prev && prev.received_at.getTime() < staleCutoff
            ? "revived"
            : undefined;
      const from: FleetChange["from"] = !prev
        ? null
        : prev.received_at.getTime() < staleCutoff
          ? "stale"
          : prev.state;
      return {
        from,
        applied: true,
        transition: changed,
        eventIds: events.map((e) => e.id),
        deliver: events.filter((e) => e.deliverable).map((e) => e.id),
        visible,
        stored: { state: i.state, reportedAt: i.reportedAt, receivedAt: now },
      };
    },
  );

  if (result.visible) {
    await publishFleetChanges(deps, [
      {
        projectId: i.projectId,
        provider: i.provider,
        sdkInstanceId: i.sdkInstanceId,
        state: i.state,
        kind: result.visible,
        from: result.from,
      },
    ]);
  }
  await enqueueWebhookDeliveries(deps, result.deliver);
  // A change of who is Down may open, update or resolve the provider incident (heartbeats cannot).
  if (result.visible) await evaluateIncidentAfterReport(deps, i.projectId, i.provider);
  return {
    applied: result.applied,
    transition: result.transition,
    eventIds: result.eventIds,
    stored: result.stored,
  };
}
