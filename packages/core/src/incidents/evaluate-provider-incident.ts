import { Prisma, type Tx } from "@breakwater/db";
import { z } from "zod";
import type { Deps } from "../context";
import type {
  IncidentOpenedEvent,
  IncidentResolvedEvent,
  IncidentUpdatedEvent,
} from "../events/incident-events";
import { loadBreakerEventContext } from "../fleet/breaker-event-context";
import { durationSeconds, fleetDashboardUrl } from "../fleet/breaker-state";
import { publishFleetChanges } from "../fleet/fleet-live";
import { newId } from "../ids";
import { enqueueWebhookDeliveries, recordWebhookEvent } from "../webhooks/record-webhook-event";
import {
  appendSample,
  type IncidentSample,
  meetsThreshold,
  newMilestones,
  thresholdInstances,
} from "./incident-rules";

export const evaluateProviderIncidentInput = z.object({
  projectId: z.string().min(1),
  provider: z.string().min(1).max(64),
  /** The evaluation's clock (tests); the server's otherwise. */
  now: z.date().optional(),
});

export type IncidentChange = "pending" | "discarded" | "opened" | "updated" | "resolved" | "counts" | null;

export interface EvaluateIncidentResult {
  incidentId: string | null;
  status: "pending" | "open" | "resolved" | null;
  change: IncidentChange;
  eventIds: string[];
  /** When this pair must be evaluated again even if no report arrives (minimum duration, quiet period). */
  dueAt: Date | null;
}

interface IncidentRow {
  id: string;
  status: "pending" | "open" | "resolved";
  threshold_since: Date;
  opened_at: Date | null;
  last_down_at: Date;
  affected_count: number;
  live_count: number;
  peak_count: number;
  peak_share: number;
  crossed: number[];
  samples: IncidentSample[];
}

interface PairState {
  organization_id: string;
  threshold_pct: number | null;
  min_duration_secs: number;
  quiet_secs: number;
  live: number;
  affected: number;
}

/**
 * The project's incident settings and how many of the provider's live instances there are and how
 * many are affected (Down or Recovering), in one query. The affected instances themselves stay in
 * Postgres (see AFFECTED): an outage across 20,000 instances is evaluated every few hundred
 * milliseconds, and shipping their ids to Node and back each time cost ~100 ms of the event loop.
 */
async function loadPairState(
  tx: Tx,
  projectId: string,
  provider: string,
  cutoff: Date,
): Promise<PairState | undefined> {
  const rows = await tx.$queryRaw<PairState[]>`
    SELECT p.organization_id, p.incident_threshold_pct AS threshold_pct,
           p.incident_min_duration_secs AS min_duration_secs, p.incident_quiet_secs AS quiet_secs,
           (SELECT count(*)::int FROM breaker_snapshots s
             WHERE s.project_id = p.id AND s.provider = ${provider} AND s.received_at >= ${cutoff}) AS live,
           (SELECT count(*)::int FROM breaker_snapshots s
             WHERE s.project_id = p.id AND s.provider = ${provider} AND s.received_at >= ${cutoff}
               AND s.state <> 'closed') AS affected
    FROM projects p WHERE p.id = ${projectId}`;
  return rows[0];
}

/**
 * Failovers away from the provider during [from, to], the successful ones (calls saved) and the
 * models that served them. Bounded by timestamp so it stays on the (project, timestamp) index.
 */
export async function incidentFallbackFigures(
  tx: Pick<Tx, "$queryRaw">,
  projectId: string,
  provider: string,
  from: Date,
  to: Date,
): Promise<{ failovers: number; callsSaved: number; models: string[] }> {
  const [r] = await tx.$queryRaw<{ failovers: number; saved: number; models: string[] }[]>`
    SELECT count(*)::int AS failovers,
           count(*) FILTER (WHERE status = 'success' AND provider <> ${provider})::int AS saved,
           coalesce(array_agg(DISTINCT model ORDER BY model)
             FILTER (WHERE status = 'success' AND provider <> ${provider}), '{}') AS models
    FROM metadata_events
    WHERE project_id = ${projectId} AND "timestamp" >= ${from} AND "timestamp" <= ${to}
      AND is_provider_fallback AND requested_provider = ${provider}`;
  return { failovers: r?.failovers ?? 0, callsSaved: r?.saved ?? 0, models: r?.models ?? [] };
}

/**
 * Evaluates the provider incident of one (project, provider) after its instances changed: opens
 * one when the share of live instances that are Down (open or recovering) reaches the project's
 * threshold for its minimum duration, announces the 50 % and 100 % crossings once each, and
 * resolves it when no live instance has been Down for the quiet period (stale instances do not
 * count). One transaction under a per-pair advisory lock, backed by the unique partial index on
 * unresolved incidents — so any number of concurrent evaluators (replicas, the sweep, a delayed
 * job) write one incident and each event exactly once. Idempotent: evaluating again changes
 * nothing unless the instances or the clock did.
 */
export async function evaluateProviderIncident(
  deps: Deps,
  raw: z.input<typeof evaluateProviderIncidentInput>,
): Promise<EvaluateIncidentResult> {
  const { projectId, provider, now: at } = evaluateProviderIncidentInput.parse(raw);
  const now = at ?? new Date();
  const cutoff = new Date(now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000);

  const result = await deps.db.$transaction(async (tx) => {
    const none = {
      incidentId: null,
      status: null,
      change: null,
      eventIds: [] as string[],
      deliver: [] as string[],
      dueAt: null,
    };
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('provider-incident'), hashtext(${`${projectId}/${provider}`}))`;
    const pair = await loadPairState(tx, projectId, provider, cutoff);
    if (!pair) return none;
    const [row] = await tx.$queryRaw<IncidentRow[]>`
      SELECT id, status, threshold_since, opened_at, last_down_at, affected_count, live_count, peak_count,
             peak_share, crossed, samples
      FROM provider_incidents
      WHERE project_id = ${projectId} AND provider = ${provider} AND resolved_at IS NULL
      FOR UPDATE`;

    const live = pair.live;
    const affected = pair.affected;
    // The incident's instances so far plus the ones affected now that it does not hold yet (a hash
    // anti-join in Postgres: the ids never travel to Node). When there are none the column is left
    // as it is: during an outage's evaluations every few hundred milliseconds, re-sorting and
    // rewriting a 20,000-id array each time cost Postgres ~90 ms per evaluation. Kept in the order
    // found; the resolution sorts it.
    const withAffected = Prisma.sql`(SELECT CASE WHEN cardinality(n.ids) = 0 THEN instances ELSE instances || n.ids END
      FROM (SELECT ARRAY(
        SELECT s.sdk_instance_id FROM breaker_snapshots s
        WHERE s.project_id = ${projectId} AND s.provider = ${provider} AND s.received_at >= ${cutoff}
          AND s.state <> 'closed'
        EXCEPT SELECT unnest(instances)) AS ids) n)`;
    const share = live > 0 ? affected / live : 0;
    const meets = meetsThreshold(affected, live, pair.threshold_pct);
    const minMs = pair.min_duration_secs * 1000;
    const quietMs = pair.quiet_secs * 1000;
    const sample: IncidentSample = { t: now.getTime(), affected, live };
    const eventIds: string[] = [];
    const deliver: string[] = [];

    let ctx: Awaited<ReturnType<typeof loadBreakerEventContext>> | undefined;
    const project = async () => {
      ctx ??= await loadBreakerEventContext(tx, projectId, now);
      return ctx;
    };
    const emit = async (
      incidentId: string,
      build: (
        eventId: string,
        projectName: string,
      ) => IncidentOpenedEvent | IncidentUpdatedEvent | IncidentResolvedEvent,
    ) => {
      const p = await project();
      const eventId = newId("evt");
      const payload = build(eventId, p.projectName);
      // Entitled now, or the incident's opening was delivered: a paged receiver always hears the end.
      const deliverable =
        p.breakerWebhooks ||
        (payload.type !== "provider_incident_opened" &&
          (await tx.webhookEvent.findFirst({
            where: { episodeId: incidentId, type: "provider_incident_opened", deliverable: true },
            select: { id: true },
          })) !== null);
      await recordWebhookEvent(tx, {
        id: eventId,
        organizationId: p.organizationId,
        projectId,
        episodeId: incidentId,
        payload,
        deliverable,
        now,
      });
      eventIds.push(eventId);
      if (deliverable) deliver.push(eventId);
    };
    const common = (eventId: string, projectName: string, incidentId: string, openedAt: Date) => ({
      event_id: eventId,
      incident_id: incidentId,
      project_id: projectId,
      project_name: projectName,
      provider,
      opened_at: openedAt.toISOString(),
      affected_instances: affected,
      live_instances: live,
      affected_share: round4(share),
      threshold_instances: thresholdInstances(live, pair.threshold_pct),
      dashboard_url: fleetDashboardUrl(deps.config.PUBLIC_URL, projectId, provider),
    });

    const open = async (incidentId: string, openedAt: Date, prior: IncidentRow | undefined) => {
      const crossed = newMilestones(share, []);
      const samples = appendSample(prior?.samples ?? [], sample);
      await tx.$executeRaw`
        UPDATE provider_incidents SET status = 'open', opened_at = ${openedAt}, last_down_at = ${now},
          affected_count = ${affected}, live_count = ${live}, peak_count = ${affected}, peak_share = ${share},
          crossed = ${crossed}::int[], instances = ${withAffected}, samples = ${JSON.stringify(samples)}::jsonb,
          updated_at = ${now}
        WHERE id = ${incidentId}`;
      // Milestones already reached when the incident opens are part of the opening, not updates.
      await emit(incidentId, (eventId, name) => ({
        type: "provider_incident_opened",
        timestamp: now.toISOString(),
        data: common(eventId, name, incidentId, openedAt),
      }));
    };

    // ── No unresolved incident ──
    if (!row) {
      if (!meets) return none;
      const id = newId("inc");
      const inserted = await tx.$executeRaw`
        INSERT INTO provider_incidents
          (id, project_id, organization_id, provider, status, threshold_since, last_down_at,
           affected_count, live_count, peak_count, peak_share, instances, samples, updated_at)
        VALUES (${id}, ${projectId}, ${pair.organization_id}, ${provider}, 'pending', ${now}, ${now},
           ${affected}, ${live}, ${affected}, ${share}, ARRAY(
             SELECT s.sdk_instance_id FROM breaker_snapshots s
             WHERE s.project_id = ${projectId} AND s.provider = ${provider} AND s.received_at >= ${cutoff}
               AND s.state <> 'closed' ORDER BY s.sdk_instance_id),
           ${JSON.stringify([sample])}::jsonb, ${now})
        ON CONFLICT (project_id, provider) WHERE resolved_at IS NULL DO NOTHING`;
      // The advisory lock makes a conflict impossible; the index is the last line of defence.
      if (inserted === 0) return none;
      if (minMs > 0) {
        return {
          ...none,
          incidentId: id,
          status: "pending" as const,
          change: "pending" as const,
          dueAt: new Date(now.getTime() + minMs),
        };
      }
      const prior: IncidentRow = {
        id,
        status: "pending",
        threshold_since: now,
        opened_at: null,
        last_down_at: now,
        affected_count: affected,
        live_count: live,
        peak_count: affected,
        peak_share: share,
        crossed: [],
        samples: [],
      };
      await open(id, now, prior);
      return {
        incidentId: id,
        status: "open" as const,
        change: "opened" as const,
        eventIds,
        deliver,
        dueAt: null,
      };
    }

    // ── Pending: the threshold must hold for the minimum duration ──
    if (row.status === "pending") {
      if (!meets) {
        // Flapped below the threshold before the minimum duration: nothing was paged, nothing stays.
        await tx.$executeRaw`DELETE FROM provider_incidents WHERE id = ${row.id}`;
        return { ...none, incidentId: row.id, change: "discarded" as const };
      }
      const dueMs = row.threshold_since.getTime() + minMs;
      if (now.getTime() < dueMs) {
        const samples = appendSample(row.samples, sample);
        await tx.$executeRaw`
          UPDATE provider_incidents SET affected_count = ${affected}, live_count = ${live},
            instances = ${withAffected},
            samples = ${JSON.stringify(samples)}::jsonb, updated_at = ${now}
          WHERE id = ${row.id}`;
        return {
          ...none,
          incidentId: row.id,
          status: "pending" as const,
          change: null,
          dueAt: new Date(dueMs),
        };
      }
      await open(row.id, row.threshold_since, row);
      return {
        incidentId: row.id,
        status: "open" as const,
        change: "opened" as const,
        eventIds,
        deliver,
        dueAt: null,
      };
    }

    // ── Open ──
    const openedAt = row.opened_at ?? row.threshold_since;
    // Down until this evaluation if anything was Down at the last one.
    const lastDownAt = affected > 0 || row.affected_count > 0 ? now : row.last_down_at;
    if (affected === 0 && now.getTime() - lastDownAt.getTime() >= quietMs) {
      const figures = await incidentFallbackFigures(tx, projectId, provider, openedAt, now);
      const [involved] = await tx.$queryRaw<{ instances: string[] }[]>`
        SELECT ARRAY(SELECT DISTINCT x FROM unnest(instances) x ORDER BY x) AS instances
        FROM provider_incidents WHERE id = ${row.id}`;
      const samples = appendSample(row.samples, sample);
      await tx.$executeRaw`
        UPDATE provider_incidents SET status = 'resolved', resolved_at = ${now}, last_down_at = ${lastDownAt},
          affected_count = 0, live_count = ${live}, samples = ${JSON.stringify(samples)}::jsonb,
          failovers = ${figures.failovers}, calls_saved = ${figures.callsSaved},
          fallback_models = ${figures.models}::text[], updated_at = ${now}
        WHERE id = ${row.id}`;
      await emit(row.id, (eventId, name) => ({
        type: "provider_incident_resolved",
        timestamp: now.toISOString(),
        data: {
          ...common(eventId, name, row.id, openedAt),
          resolved_at: now.toISOString(),
          duration_seconds: durationSeconds(openedAt, now),
          peak_affected_instances: row.peak_count,
          peak_affected_share: round4(row.peak_share),
          instances_involved: involved?.instances ?? [],
          failovers: figures.failovers,
          calls_saved: figures.callsSaved,
          fallback_models: figures.models,
        },
      }));
      return {
        incidentId: row.id,
        status: "resolved" as const,
        change: "resolved" as const,
        eventIds,
        deliver,
        dueAt: null,
      };
    }

    const crossings = newMilestones(share, row.crossed);
    const peak = affected > row.peak_count || (affected === row.peak_count && share > row.peak_share);
    const samples = appendSample(row.samples, sample);
    const countsChanged = affected !== row.affected_count || live !== row.live_count;
    await tx.$executeRaw`
      UPDATE provider_incidents SET last_down_at = ${lastDownAt}, affected_count = ${affected}, live_count = ${live},
        peak_count = ${peak ? affected : row.peak_count}, peak_share = ${peak ? share : row.peak_share},
        crossed = ${[...row.crossed, ...crossings]}::int[],
        instances = ${affected > 0 ? withAffected : Prisma.sql`instances`},
        samples = ${JSON.stringify(samples)}::jsonb, updated_at = ${now}
      WHERE id = ${row.id}`;
    for (const m of crossings) {
      await emit(row.id, (eventId, name) => ({
        type: "provider_incident_updated",
        timestamp: now.toISOString(),
        data: { ...common(eventId, name, row.id, openedAt), crossed_share: m === 100 ? 1 : 0.5 },
      }));
    }
    return {
      incidentId: row.id,
      status: "open" as const,
      change: crossings.length > 0 ? ("updated" as const) : countsChanged ? ("counts" as const) : null,
      eventIds,
      deliver,
      dueAt: affected === 0 ? new Date(lastDownAt.getTime() + quietMs) : null,
    };
  });

  if (result.change && result.change !== "pending" && result.change !== "discarded") {
    await publishFleetChanges(deps, [
      {
        projectId,
        provider,
        sdkInstanceId: "",
        state: result.status === "resolved" ? "closed" : "open",
        kind: "incident",
      },
    ]);
  }
  await enqueueWebhookDeliveries(deps, result.deliver);
  if (result.dueAt) await scheduleIncidentEvaluation(deps, projectId, provider, result.dueAt);
  return {
    incidentId: result.incidentId,
    status: result.status,
    change: result.change,
    eventIds: result.eventIds,
    dueAt: result.dueAt,
  };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * Asks the worker to evaluate the pair again at `at` (minimum duration reached, quiet period over).
 * The job id names the pair and the instant, so repeated evaluations schedule it once. Best effort:
 * the incident sweep evaluates every unresolved incident every few seconds anyway.
 */
export async function scheduleIncidentEvaluation(
  deps: Deps,
  projectId: string,
  provider: string,
  at: Date,
): Promise<void> {
  if (!deps.jobs) return;
  const safe = provider.replace(/[^A-Za-z0-9_-]/g, "_");
  await deps.jobs
    .enqueue(
      "incident-evaluate",
      { projectId, provider },
      { jobId: `inc-${projectId}-${safe}-${at.getTime()}`, delayMs: Math.max(0, at.getTime() - Date.now()) },
    )
    .catch((err: unknown) =>
      deps.log.warn(
        { projectId, provider, err: (err as Error).message },
        "incident evaluation not scheduled",
      ),
    );
}

/**
 * Evaluates every pair that may need it: each unresolved incident, and each provider with a live
 * Down instance but no unresolved incident (an evaluation lost to a crash). Run by the worker every
 * few seconds; this is what resolves an incident whose instances went silent.
 */
export async function sweepProviderIncidents(
  deps: Deps,
  opts: { now?: Date; projectIds?: string[]; limit?: number } = {},
): Promise<{ evaluated: number; opened: number; resolved: number }> {
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000);
  const ids = opts.projectIds ?? null;
  const pairs = await deps.db.$queryRaw<{ project_id: string; provider: string }[]>`
    SELECT project_id, provider FROM provider_incidents
    WHERE resolved_at IS NULL AND (${ids}::text[] IS NULL OR project_id = ANY(${ids}::text[]))
    UNION
    SELECT DISTINCT s.project_id, s.provider FROM breaker_snapshots s
    WHERE s.state <> 'closed' AND s.received_at >= ${cutoff}
      AND (${ids}::text[] IS NULL OR s.project_id = ANY(${ids}::text[]))
      AND NOT EXISTS (SELECT 1 FROM provider_incidents i
        WHERE i.project_id = s.project_id AND i.provider = s.provider AND i.resolved_at IS NULL)
    LIMIT ${opts.limit ?? 1000}`;
  let opened = 0;
  let resolved = 0;
  for (const p of pairs) {
    const r = await evaluateProviderIncident(deps, { projectId: p.project_id, provider: p.provider, now });
    if (r.change === "opened") opened++;
    if (r.change === "resolved") resolved++;
  }
  return { evaluated: pairs.length, opened, resolved };
}

const inFlight = new Map<string, { waiting: (() => void)[] }>();

/** Shortest time between two evaluations of one pair asked for by reports (see evaluateIncidentAfterReport). */
export const INCIDENT_EVALUATION_SPACING_MS = 250;
/**
 * An evaluation that took d ms is followed by a pause of at least this many times d: the scans of a
 * pair with 20,000 Down instances then take at most a fifth of the time however slow the machine,
 * and the reports' own transactions keep the rest.
 */
export const INCIDENT_EVALUATION_PAUSE_FACTOR = 4;

/**
 * Evaluates after a breaker report without ever failing it (the sweep retries what fails here).
 * Reports of one outage arrive together: per process, one evaluation of a pair runs at a time and
 * the reports arriving meanwhile share one more run after it — so a burst of 40 reports holds one
 * database connection per replica, not 40 waiting on the pair's lock. Resolves once an evaluation
 * that started after this call's report was committed has finished.
 */
export function evaluateIncidentAfterReport(deps: Deps, projectId: string, provider: string): Promise<void> {
  const key = `${projectId}/${provider}`;
  return new Promise<void>((resolve) => {
    const running = inFlight.get(key);
    // Answered by the next evaluation to start: one that started before this report may not see it.
    if (running) {
      running.waiting.push(resolve);
      return;
    }
    const entry = { waiting: [resolve] };
    inFlight.set(key, entry);
    void (async () => {
      try {
        let last = 0;
        let took = 0;
        while (entry.waiting.length > 0) {
          const answered = entry.waiting.splice(0);
          // During an outage's burst every batch of reports asks again: one evaluation per spacing
          // at most (each scans the pair's live instances), never sooner than a pause of a few
          // times the last one's duration after it ended, and the last one always runs.
          const due =
            last + Math.max(INCIDENT_EVALUATION_SPACING_MS, took * (1 + INCIDENT_EVALUATION_PAUSE_FACTOR));
          const wait = due - performance.now();
          if (last > 0 && wait > 0) await new Promise((r) => setTimeout(r, wait));
          last = performance.now();
          try {
            await evaluateProviderIncident(deps, { projectId, provider });
          } catch (err) {
            deps.log.warn(
              { projectId, provider, err: (err as Error).message },
              "incident evaluation failed; the sweep retries",
            );
          }
          took = performance.now() - last;
          for (const done of answered) done();
        }
      } finally {
        inFlight.delete(key);
      }
    })();
  });
}
