import { z } from "zod";
import type { Deps } from "../context";
import type { BreakerClosedEvent } from "../events/breaker-events";
import { newId } from "../ids";
import { evaluateIncidentAfterReport } from "../incidents/evaluate-provider-incident";
import { enqueueWebhookDeliveries, recordWebhookEvent } from "../webhooks/record-webhook-event";
import { loadBreakerEventContext } from "./breaker-event-context";
import { type CircuitState, durationSeconds, fleetDashboardUrl } from "./breaker-state";
import { publishFleetChanges } from "./fleet-live";
import { breakerEventDeliverable } from "./record-breaker-report";

export const closeStaleEpisodesInput = z.object({
  now: z.date().optional(),
  /** Instances handled per call; the scheduler runs again soon for the rest. */
  limit: z.number().int().min(1).max(10_000).default(500),
  /** Sweep only these projects (the scheduler sweeps all). */
  projectIds: z.array(z.string()).optional(),
});

interface StaleRow {
  project_id: string;
  provider: string;
  sdk_instance_id: string;
}

interface LockedRow {
  state: CircuitState;
  failure_count: number;
  success_count: number;
  reported_at: Date;
  received_at: Date;
  open_episode_id: string | null;
}

/**
 * Closes the open episode of every instance silent for BREAKER_STALE_SECONDS with resolution
 * "instance_expired" and its circuit_breaker_closed event, each in its own transaction under the
 * snapshot's row lock — so a report arriving at the same moment and the sweep never both close
 * one episode, and every opened episode gets exactly one closed.
 */
export async function closeStaleEpisodes(
  deps: Deps,
  raw: z.input<typeof closeStaleEpisodesInput> = {},
): Promise<{ closed: number; eventIds: string[] }> {
  const input = closeStaleEpisodesInput.parse(raw);
  const now = input.now ?? new Date();
  const cutoff = new Date(now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000);

  const stale = await deps.db.$queryRaw<StaleRow[]>`
    SELECT project_id, provider, sdk_instance_id FROM breaker_snapshots
    WHERE open_episode_id IS NOT NULL AND received_at < ${cutoff}
      AND (${input.projectIds ?? null}::text[] IS NULL OR project_id = ANY(${input.projectIds ?? null}::text[]))
    ORDER BY received_at LIMIT ${input.limit}`;

  const eventIds: string[] = [];
  const pairs = new Map<string, { projectId: string; provider: string }>();
  let closed = 0;
  for (const s of stale) {
    const r = await deps.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<LockedRow[]>`
        SELECT state::text AS state, failure_count, success_count, reported_at, received_at, open_episode_id
        FROM breaker_snapshots
        WHERE project_id = ${s.project_id} AND provider = ${s.provider} AND sdk_instance_id = ${s.sdk_instance_id}
        FOR UPDATE`;
      const snap = rows[0];
      // Re-checked under the lock: a report may have revived the instance or closed the episode.
      if (!snap?.open_episode_id || snap.received_at >= cutoff) return null;
      const episodeId = snap.open_episode_id;
      const episode = await tx.breakerEpisode.update({
        where: { id: episodeId },
        data: { closedAt: now, resolution: "instance_expired" },
      });
      await tx.breakerSnapshot.update({
        where: {
          projectId_provider_sdkInstanceId: {
            projectId: s.project_id,
            provider: s.provider,
            sdkInstanceId: s.sdk_instance_id,
          },
        },
        data: { openEpisodeId: null },
      });
      const project = await loadBreakerEventContext(tx, s.project_id, now);
      const eventId = newId("evt");
      const deliverable = await breakerEventDeliverable(tx, project.breakerWebhooks, episodeId);
      const payload: BreakerClosedEvent = {
        type: "circuit_breaker_closed",
        timestamp: now.toISOString(),
        data: {
          event_id: eventId,
          episode_id: episodeId,
          project_id: s.project_id,
          project_name: project.projectName,
          provider: s.provider,
          sdk_instance_id: s.sdk_instance_id,
          // Breakwater never saw the breaker close: the last reported state is the honest one.
          state: snap.state,
          previous_state: snap.state,
          failure_count: snap.failure_count,
          success_count: snap.success_count,
          reported_at: snap.reported_at.toISOString(),
          opened_at: episode.openedAt.toISOString(),
          closed_at: now.toISOString(),
          duration_seconds: durationSeconds(episode.openedAt, now),
          resolution: "instance_expired",
          dashboard_url: fleetDashboardUrl(deps.config.PUBLIC_URL, s.project_id, s.provider),
        },
      };
      await recordWebhookEvent(tx, {
        id: eventId,
        organizationId: project.organizationId,
        projectId: s.project_id,
        episodeId,
        payload,
        deliverable,
        now,
      });
      return { eventId, deliverable, state: snap.state };
    });
    if (!r) continue;
    await publishFleetChanges(deps, [
      {
        projectId: s.project_id,
        provider: s.provider,
        sdkInstanceId: s.sdk_instance_id,
        state: r.state,
        kind: "expired",
        from: r.state,
      },
    ]);
    closed++;
    pairs.set(`${s.project_id}/${s.provider}`, { projectId: s.project_id, provider: s.provider });
    eventIds.push(r.eventId);
    if (r.deliverable) await enqueueWebhookDeliveries(deps, [r.eventId]);
  }
  // Stale instances no longer count as Down: their providers' incidents may resolve.
  for (const p of pairs.values()) await evaluateIncidentAfterReport(deps, p.projectId, p.provider);
  if (closed > 0) deps.log.info({ closed }, "closed breaker episodes of stale instances");
  return { closed, eventIds };
}
