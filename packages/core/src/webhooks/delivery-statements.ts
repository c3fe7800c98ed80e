import type { PrismaClient } from "@breakwater/db";
import type { EndpointFormat } from "./endpoint-formats";
import { StatementBatcher } from "./statement-batcher";

/**
 * The statements every webhook delivery runs, each batched across the deliveries at the same step
 * (see StatementBatcher): one per process and database client, shared by every job, so a backlog
 * costs a round trip per batch rather than per message. Each statement is written for many rows
 * and means exactly what the one-row statement it replaced meant.
 *
 * Every lookup of many rows goes through an index: `col = ANY(array)` or a LATERAL subquery per
 * row, never `IN (SELECT …)` or a join against an unnest, for which the planner (guessing 100 rows
 * for the unnest) chose hash joins over a sequential scan of webhook_events or
 * webhook_deliveries — a cost that grows with every event ever sent (bench:webhooks at 100,000).
 */

/** An event as the sender needs it, with its outbox row's state. */
export interface LoadedEvent {
  id: string;
  organizationId: string;
  projectId: string;
  type: string;
  payload: unknown;
  createdAt: Date;
  completedAt: Date | null;
  outcome: string | null;
}

/** A delivery this process holds the claim on, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  claimed_at: Date;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  enabled: boolean;
  failing_since: Date | null;
  format: EndpointFormat;
  routing_key: string | null;
}

/** An event with its outbox state, the deliveries this run claimed, and how many it has in all. */
export interface Started {
  event: LoadedEvent;
  claimed: ClaimedDelivery[];
  total: number;
}

export interface FanOut {
  event: { id: string; organizationId: string; projectId: string; type: string; createdAt: Date };
  provider: string | null;
  claimedAt: Date;
  until: Date;
}

/** An opening message still pending for a closing one (endpointId null: not fanned out yet). */
export interface OpenedPending {
  endpointId: string | null;
  status: string | null;
  nextAttemptAt: Date | null;
}

export interface FollowerQuery {
  eventId: string;
  episodeId: string;
  openedType: string;
}

export interface AttemptRecord {
  /** Also settle the event's outbox row (its only delivery): saves the separate settle statement. */
  settle: boolean;
  eventId: string;
  now: Date;
  attemptId: string;
  deliveryId: string;
  trigger: string;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  snippet: string | null;
  status: string;
  nextAttemptAt: Date | null;
  attemptCount: number;
}

/** A delivery put back unattempted: due again at `at`, or finished with `status` (skipped). */
export interface Release {
  deliveryId: string;
  at: Date | null;
  status: string | null;
}

export interface Settled {
  total: number;
  pending: number;
  succeeded: number;
  due: Date | null;
}

export interface SvixOutboxUpdate {
  eventId: string;
  lastError: string | null;
  messageId: string | null;
  completedAt: Date | null;
  outcome: string | null;
  nextAttemptAt: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface DeliveryStatements {
  load: StatementBatcher<string, LoadedEvent | null>;
  start: StatementBatcher<{ eventId: string; claimedAt: Date; until: Date }, Started | null>;
  fanOutAndClaim: StatementBatcher<FanOut, ClaimedDelivery[]>;
  openedPending: StatementBatcher<FollowerQuery, OpenedPending[]>;
  record: StatementBatcher<AttemptRecord, Settled | null>;
  release: StatementBatcher<Release, void>;
  settle: StatementBatcher<{ eventId: string; now: Date }, Settled | null>;
  svixOutbox: StatementBatcher<SvixOutboxUpdate, void>;
}

const MAX_BATCH = 256;
/** Two statements of a kind in flight: one runs while the next batch gathers. */
const MAX_CONCURRENT = 2;

const byDb = new WeakMap<PrismaClient, DeliveryStatements>();

/** The process's batched delivery statements on `db`. */
export function deliveryStatements(db: PrismaClient): DeliveryStatements {
  let s = byDb.get(db);
  if (!s) {
    s = createStatements(db);
    byDb.set(db, s);
  }
  return s;
}

function batcher<I, O>(run: (items: I[]) => Promise<O[]>) {
  return new StatementBatcher(run, { maxBatch: MAX_BATCH, maxConcurrent: MAX_CONCURRENT });
}

function createStatements(db: PrismaClient): DeliveryStatements {
  const load = batcher<string, LoadedEvent | null>(async (ids) => {
    const rows = await db.$queryRawUnsafe<LoadedEvent[]>(
      `SELECT e.id, e.organization_id AS "organizationId", e.project_id AS "projectId", e.type, e.payload,
              e.created_at AS "createdAt", o.completed_at AS "completedAt", o.outcome
       FROM webhook_events e JOIN webhook_outbox o ON o.event_id = e.id
       WHERE e.id = ANY($1::text[]) AND e.deliverable`,
      [...new Set(ids)],
    );
    const found = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => found.get(id) ?? null);
  });

  // One delivery row per matching endpoint — enabled, in scope, filters matching, created before
  // the event — inserted once (unique per event and endpoint, so re-runs never fan out twice) and
  // claimed as it is inserted; rows an earlier run inserted are claimed when due and unheld. The
  // UPDATE sees only rows that existed before the statement, so no row is claimed twice, and a
  // concurrent run of the same event finds every row held (claimed_until) and skips it.
  // `ev` (id, org, project, type, provider, created_at) names the events; $until and $now the claim.
  const claimSql = (until: string, now: string) => `
       ins AS (
         INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at, claimed_until)
         SELECT 'dlv_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
                  || substr(replace(gen_random_uuid()::text, '-', ''), 1, 12),
                ev.id, e.id, 'pending', ev.created_at, now(), ${until}::timestamptz
         FROM ev JOIN webhook_endpoints e
           ON e.organization_id = ev.org AND e.enabled AND e.created_at <= ev.created_at
          AND (e.project_id IS NULL OR e.project_id = ev.project)
          AND (cardinality(e.event_types) = 0 OR ev.type = ANY(e.event_types))
          AND (cardinality(e.providers) = 0 OR ev.provider = ANY(e.providers))
          -- Slack and PagerDuty endpoints take provider incidents only (PagerDuty: trigger and resolve).
          AND (e.format = 'standard'
            OR ev.type IN ('provider_incident_opened', 'provider_incident_resolved')
            OR (e.format = 'slack' AND ev.type = 'provider_incident_updated'))
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING id, event_id, endpoint_id, status, attempt_count, next_attempt_at
       ), upd AS (
         UPDATE webhook_deliveries d SET claimed_until = ${until}::timestamptz
         WHERE d.event_id = ANY(ARRAY(SELECT id FROM ev))
           AND d.status = 'pending' AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= ${now}::timestamptz)
           AND (d.claimed_until IS NULL OR d.claimed_until < ${now}::timestamptz)
         RETURNING d.id, d.event_id, d.endpoint_id, d.status, d.attempt_count, d.next_attempt_at
       ), c AS (SELECT * FROM ins UNION ALL SELECT * FROM upd)`;
  const claimedColumns = `c.id, c.event_id, c.status, c.attempt_count, c.next_attempt_at,
              e.id AS endpoint_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, e.enabled,
              e.failing_since, e.format, e.routing_key`;

  const fanOutAndClaim = batcher<FanOut, ClaimedDelivery[]>(async (items) => {
    const claimedAt = items[0]!.claimedAt;
    const until = new Date(Math.max(...items.map((i) => i.until.getTime())));
    const rows = await db.$queryRawUnsafe<ClaimedDelivery[]>(
      `WITH ev AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
           AS v(id, org, project, type, provider, created_at)
       ), ${claimSql("$7", "$8")}
       SELECT ${claimedColumns}, $8::timestamptz AS claimed_at
       FROM c JOIN webhook_endpoints e ON e.id = c.endpoint_id
       ORDER BY c.id`,
      items.map((i) => i.event.id),
      items.map((i) => i.event.organizationId),
      items.map((i) => i.event.projectId),
      items.map((i) => i.event.type),
      items.map((i) => i.provider),
      items.map((i) => i.event.createdAt.toISOString()),
      until.toISOString(),
      claimedAt.toISOString(),
    );
    const byEvent = new Map<string, ClaimedDelivery[]>();
    for (const r of rows) byEvent.set(r.event_id, [...(byEvent.get(r.event_id) ?? []), r]);
    // Two runs of one event in the same batch: the claims go to the first, as if it ran first.
    const given = new Set<string>();
    return items.map((i) => {
      if (given.has(i.event.id)) return [];
      given.add(i.event.id);
      return byEvent.get(i.event.id) ?? [];
    });
  });

  // The built-in sender's first step in one statement: read the events and their outbox rows, and
  // for those not completed fan out and claim (as fanOutAndClaim), counting every delivery each
  // event has (earlier rows included) so a run whose only delivery is this one can settle the
  // outbox row together with the attempt.
  const start = batcher<{ eventId: string; claimedAt: Date; until: Date }, Started | null>(async (items) => {
    const claimedAt = items[0]!.claimedAt;
    const until = new Date(Math.max(...items.map((i) => i.until.getTime())));
    const rows = await db.$queryRawUnsafe<
      (Omit<ClaimedDelivery, "id" | "event_id" | "claimed_at"> &
        Omit<LoadedEvent, "id"> & {
          ev_id: string;
          earlier: number;
          inserted: number;
          id: string | null;
        })[]
    >(
      `WITH loaded AS (
         SELECT e.id, e.organization_id, e.project_id, e.type, e.payload, e.created_at, o.completed_at, o.outcome
         FROM webhook_events e JOIN webhook_outbox o ON o.event_id = e.id
         WHERE e.id = ANY($1::text[]) AND e.deliverable
       ), ev AS (
         SELECT id, organization_id AS org, project_id AS project, type, payload->'data'->>'provider' AS provider,
                created_at
         FROM loaded WHERE completed_at IS NULL
       ), ${claimSql("$2", "$3")}
       SELECT l.id AS ev_id, l.organization_id AS "organizationId", l.project_id AS "projectId", l.type, l.payload,
              l.created_at AS "createdAt", l.completed_at AS "completedAt", l.outcome,
              (SELECT count(*) FROM webhook_deliveries x WHERE x.event_id = l.id)::int AS earlier,
              (SELECT count(*) FROM ins WHERE ins.event_id = l.id)::int AS inserted,
              ${claimedColumns}
       FROM loaded l LEFT JOIN c ON c.event_id = l.id LEFT JOIN webhook_endpoints e ON e.id = c.endpoint_id
       ORDER BY l.id, c.id`,
      [...new Set(items.map((i) => i.eventId))],
      until.toISOString(),
      claimedAt.toISOString(),
    );
    const byEvent = new Map<string, Started>();
    for (const r of rows) {
      let st = byEvent.get(r.ev_id);
      if (!st) {
        st = {
          event: {
            id: r.ev_id,
            organizationId: r.organizationId,
            projectId: r.projectId,
            type: r.type,
            payload: r.payload,
            createdAt: r.createdAt,
            completedAt: r.completedAt,
            outcome: r.outcome,
          },
          claimed: [],
          total: r.earlier + r.inserted,
        };
        byEvent.set(r.ev_id, st);
      }
      if (r.id !== null) {
        st.claimed.push({
          id: r.id,
          event_id: r.ev_id,
          status: r.status,
          attempt_count: r.attempt_count,
          next_attempt_at: r.next_attempt_at,
          claimed_at: claimedAt,
          endpoint_id: r.endpoint_id,
          url: r.url,
          secret: r.secret,
          previous_secret: r.previous_secret,
          previous_secret_expires_at: r.previous_secret_expires_at,
          enabled: r.enabled,
          failing_since: r.failing_since,
          format: r.format,
          routing_key: r.routing_key,
        });
      }
    }
    // Two runs of one event in the same batch: the claims go to the first, as if it ran first.
    const given = new Set<string>();
    return items.map((i) => {
      const st = byEvent.get(i.eventId);
      if (!st) return null;
      if (given.has(i.eventId)) return { ...st, claimed: [] };
      given.add(i.eventId);
      return st;
    });
  });

  const openedPending = batcher<FollowerQuery, OpenedPending[]>(async (items) => {
    const rows = await db.$queryRawUnsafe<
      {
        follower_id: string;
        endpoint_id: string | null;
        status: string | null;
        next_attempt_at: Date | null;
      }[]
    >(
      `SELECT f.follower_id, d.endpoint_id, d.status, d.next_attempt_at
       FROM (SELECT id, episode_id, type FROM webhook_events WHERE episode_id = ANY($2::text[])) e
       JOIN unnest($1::text[], $2::text[], $3::text[]) AS f(follower_id, episode_id, opened_type)
         ON f.episode_id = e.episode_id AND f.opened_type = e.type AND f.follower_id <> e.id
       JOIN webhook_outbox o ON o.event_id = e.id AND o.completed_at IS NULL
       LEFT JOIN webhook_deliveries d ON d.event_id = e.id`,
      items.map((i) => i.eventId),
      items.map((i) => i.episodeId),
      items.map((i) => i.openedType),
    );
    const byFollower = new Map<string, OpenedPending[]>();
    for (const r of rows) {
      const list = byFollower.get(r.follower_id) ?? [];
      list.push({ endpointId: r.endpoint_id, status: r.status, nextAttemptAt: r.next_attempt_at });
      byFollower.set(r.follower_id, list);
    }
    return items.map((i) => byFollower.get(i.eventId) ?? []);
  });

  // Records each attempt and moves its delivery on, releasing the claim (attempt numbers are per
  // delivery; the claim guarantees nobody else writes the delivery meanwhile). For attempts marked
  // `settle` (their event's only delivery) the outbox row is settled in the same statement, from
  // the deliveries as this statement leaves them — see `settle`.
  const record = batcher<AttemptRecord, Settled | null>(async (items) => {
    const now = new Date(Math.max(...items.map((i) => i.now.getTime())));
    const rows = await db.$queryRawUnsafe<
      { event_id: string; total: number; pending: number; succeeded: number; due: Date | null }[]
    >(
      `WITH a AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[], $6::int[],
                              $7::bool[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::int[],
                              $13::text[], $14::bool[])
           AS v(id, delivery_id, trigger, started_at, latency_ms, response_status, success, error, snippet,
                status, next_attempt_at, attempt_count, event_id, settle)
       ), ins AS (
         INSERT INTO webhook_attempts
           (id, delivery_id, attempt_number, trigger, started_at, latency_ms, response_status, success, error, response_snippet)
         SELECT a.id, a.delivery_id, (SELECT count(*) + 1 FROM webhook_attempts w WHERE w.delivery_id = a.delivery_id),
                a.trigger, a.started_at, a.latency_ms, a.response_status, a.success, a.error, a.snippet
         FROM a
       ), upd AS (
         UPDATE webhook_deliveries d
         SET status = a.status, next_attempt_at = a.next_attempt_at, attempt_count = a.attempt_count,
             last_attempt_at = a.started_at, claimed_until = NULL
         FROM a WHERE d.id = a.delivery_id
       ), s AS (
         SELECT d.event_id, count(*)::int AS total,
                count(*) FILTER (WHERE coalesce(a.status, d.status) = 'pending')::int AS pending,
                count(*) FILTER (WHERE coalesce(a.status, d.status) = 'succeeded')::int AS succeeded,
                min(greatest(
                      coalesce(CASE WHEN a.id IS NULL THEN d.next_attempt_at ELSE a.next_attempt_at END, $15::timestamptz),
                      coalesce(CASE WHEN a.id IS NULL THEN d.claimed_until END, $15::timestamptz)))
                  FILTER (WHERE coalesce(a.status, d.status) = 'pending') AS due
         FROM webhook_deliveries d LEFT JOIN a ON a.delivery_id = d.id
         WHERE d.event_id = ANY(ARRAY(SELECT event_id FROM a WHERE settle))
         GROUP BY d.event_id
       )
       UPDATE webhook_outbox o SET
         completed_at = CASE WHEN s.pending = 0 THEN $15::timestamptz END,
         outcome = CASE WHEN s.pending > 0 THEN NULL WHEN s.total = 0 THEN 'no_endpoints'
                        WHEN s.succeeded = s.total THEN 'delivered' ELSE 'failed' END,
         next_attempt_at = CASE WHEN s.pending > 0 THEN s.due END
       FROM s WHERE o.event_id = s.event_id
       RETURNING o.event_id, s.total, s.pending, s.succeeded, s.due`,
      items.map((i) => i.attemptId),
      items.map((i) => i.deliveryId),
      items.map((i) => i.trigger),
      items.map((i) => i.startedAt.toISOString()),
      items.map((i) => i.latencyMs),
      items.map((i) => i.statusCode),
      items.map((i) => i.success),
      items.map((i) => i.error),
      items.map((i) => i.snippet),
      items.map((i) => i.status),
      items.map((i) => iso(i.nextAttemptAt)),
      items.map((i) => i.attemptCount),
      items.map((i) => i.eventId),
      items.map((i) => i.settle),
      now.toISOString(),
    );
    const byEvent = new Map(rows.map((r) => [r.event_id, r]));
    return items.map((i) => {
      const r = i.settle ? byEvent.get(i.eventId) : undefined;
      return r ? { total: r.total, pending: r.pending, succeeded: r.succeeded, due: r.due } : null;
    });
  });

  const release = batcher<Release, void>(async (items) => {
    await db.$executeRawUnsafe(
      `UPDATE webhook_deliveries d
       SET next_attempt_at = v.at, status = coalesce(v.status, d.status), claimed_until = NULL
       FROM unnest($1::text[], $2::timestamptz[], $3::text[]) AS v(id, at, status)
       WHERE d.id = v.id`,
      items.map((i) => i.deliveryId),
      items.map((i) => iso(i.at)),
      items.map((i) => i.status),
    );
    return items.map(() => undefined);
  });

  // Sums up each event's deliveries and settles its outbox row: completed when none is pending,
  // otherwise due when the earliest pending one is (or when its claim runs out).
  const settle = batcher<{ eventId: string; now: Date }, Settled | null>(async (items) => {
    const rows = await db.$queryRawUnsafe<
      { event_id: string; total: number; pending: number; succeeded: number; due: Date | null }[]
    >(
      `WITH v AS (
         SELECT * FROM unnest($1::text[], $2::timestamptz[]) AS v(event_id, now)
       ), s AS (
         SELECT v.event_id, v.now, count(d.id)::int AS total,
                count(d.id) FILTER (WHERE d.status = 'pending')::int AS pending,
                count(d.id) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
                min(greatest(coalesce(d.next_attempt_at, v.now), coalesce(d.claimed_until, v.now)))
                  FILTER (WHERE d.status = 'pending') AS due
         FROM v LEFT JOIN (SELECT * FROM webhook_deliveries WHERE event_id = ANY($1::text[])) d
           ON d.event_id = v.event_id
         GROUP BY v.event_id, v.now
       )
       UPDATE webhook_outbox o SET
         completed_at = CASE WHEN s.pending = 0 THEN s.now END,
         outcome = CASE WHEN s.pending > 0 THEN NULL WHEN s.total = 0 THEN 'no_endpoints'
                        WHEN s.succeeded = s.total THEN 'delivered' ELSE 'failed' END,
         next_attempt_at = CASE WHEN s.pending > 0 THEN s.due END
       FROM s WHERE o.event_id = s.event_id
       RETURNING o.event_id, s.total, s.pending, s.succeeded, s.due`,
      items.map((i) => i.eventId),
      items.map((i) => i.now.toISOString()),
    );
    const byEvent = new Map(rows.map((r) => [r.event_id, r]));
    return items.map((i) => {
      const r = byEvent.get(i.eventId);
      return r ? { total: r.total, pending: r.pending, succeeded: r.succeeded, due: r.due } : null;
    });
  });

  const svixOutbox = batcher<SvixOutboxUpdate, void>(async (items) => {
    await db.$executeRawUnsafe(
      `UPDATE webhook_outbox o SET
         attempts = o.attempts + 1,
         last_error = v.last_error,
         svix_message_id = coalesce(v.message_id, o.svix_message_id),
         completed_at = coalesce(v.completed_at, o.completed_at),
         outcome = coalesce(v.outcome, o.outcome),
         next_attempt_at = v.next_attempt_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::timestamptz[])
         AS v(event_id, last_error, message_id, completed_at, outcome, next_attempt_at)
       WHERE o.event_id = v.event_id`,
      items.map((i) => i.eventId),
      items.map((i) => i.lastError),
      items.map((i) => i.messageId),
      items.map((i) => iso(i.completedAt)),
      items.map((i) => i.outcome),
      items.map((i) => iso(i.nextAttemptAt)),
    );
    return items.map(() => undefined);
  });

  return { load, start, fanOutAndClaim, openedPending, record, release, settle, svixOutbox };
}
