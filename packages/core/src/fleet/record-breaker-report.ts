import type { Tx } from "@breakwater/db";
import type { Pool } from "pg";
import { z } from "zod";
import type { Deps } from "../context";
import { invalid } from "../errors";
import type { BreakerClosedEvent, BreakerOpenedEvent } from "../events/breaker-events";
import { newId } from "../ids";
import { evaluateIncidentAfterReport } from "../incidents/evaluate-provider-incident";
import { pgTransaction, prismaSqlRun, type SqlRun } from "../sql-run";
import { enqueueWebhookDeliveries } from "../webhooks/record-webhook-event";
import { type BreakerEventContext, breakerEventContext } from "./breaker-event-context";
import { CIRCUIT_STATES, type CircuitState, durationSeconds, fleetDashboardUrl } from "./breaker-state";
import { type FleetChange, publishFleetChanges } from "./fleet-live";
import { settleSnapshots } from "./fleet-redis";

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
  const episode = await tx.breakerEpisode.findUnique({
    where: { id: closingEpisodeId },
    select: { openedDelivered: true },
  });
  if (episode?.openedDelivered != null) return episode.openedDelivered;
  // An episode opened before opened_delivered existed: its opening event says.
  const opened = await tx.webhookEvent.findFirst({
    where: { episodeId: closingEpisodeId, type: "circuit_breaker_opened", deliverable: true },
    select: { id: true },
  });
  return opened !== null;
}

/**
 * What recording breaker reports needs. With `pg` (the SDK API's pool) the batch's transaction runs
 * on a plain node-postgres connection — a burst of transitions is a handful of statements per
 * batch, and Prisma's interactive-transaction machinery around each cost more than the statements
 * themselves; without it, the same statements run in a Prisma transaction.
 */
export interface BreakerReportDeps extends Deps {
  pg?: Pool;
}

/** Reports one batch transaction takes at most (its events get distinct microsecond timestamps). */
export const MAX_BREAKER_BATCH = 500;

interface SnapshotRow {
  state: CircuitState;
  reported_at: Date;
  open_episode_id: string | null;
  state_since: Date | null;
  received_at: Date;
}

type LockedRow = SnapshotRow & {
  project_id: string;
  provider: string;
  sdk_instance_id: string;
  /** The open episode's opened_at and opened_delivered, as this statement's snapshot sees them. */
  episode_opened_at: Date | null;
  episode_opened_delivered: boolean | null;
};

type Input = z.output<typeof breakerReportInput>;

const keyOf = (projectId: string, provider: string, sdkInstanceId: string) =>
  `${projectId}\u0000${provider}\u0000${sdkInstanceId}`;

/** The distinct (project, provider, instance) keys of `inputs` as three arrays, for `unnest`. */
function keyColumns(inputs: readonly Input[]): [string[], string[], string[]] {
  const seen = new Set<string>();
  const cols: [string[], string[], string[]] = [[], [], []];
  for (const i of inputs) {
    const k = keyOf(i.projectId, i.provider, i.sdkInstanceId);
    if (seen.has(k)) continue;
    seen.add(k);
    cols[0].push(i.projectId);
    cols[1].push(i.provider);
    cols[2].push(i.sdkInstanceId);
  }
  return cols;
}

/**
 * Locks the snapshots of `inputs`' keys in one statement, in one order for every caller (the
 * heartbeat flush takes its locks in the same order), so concurrent batches cannot deadlock. Each
 * row comes with its open episode's opening (scalar subqueries: a row re-checked after a concurrent
 * update is never dropped, though its episode may then read as null and is looked up again).
 */
async function lockSnapshots(q: SqlRun, inputs: readonly Input[]): Promise<LockedRow[]> {
  return q<LockedRow>(
    `SELECT s.project_id, s.provider, s.sdk_instance_id, s.state::text AS state, s.reported_at,
            s.open_episode_id, s.state_since, s.received_at,
            (SELECT e.opened_at FROM breaker_episodes e WHERE e.id = s.open_episode_id) AS episode_opened_at,
            (SELECT e.opened_delivered FROM breaker_episodes e WHERE e.id = s.open_episode_id) AS episode_opened_delivered
     FROM breaker_snapshots s
     JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(p, prov, inst)
       ON s.project_id = k.p AND s.provider = k.prov AND s.sdk_instance_id = k.inst
     ORDER BY s.project_id COLLATE "C", s.provider COLLATE "C", s.sdk_instance_id COLLATE "C"
     FOR UPDATE OF s`,
    keyColumns(inputs),
  );
}

/** `now` plus `k` microseconds, as timestamptz text: a batch's events keep their order in created_at. */
function microsAfter(now: Date, k: number): string {
  return `${now.toISOString().slice(0, 23)}${String(k).padStart(3, "0")}Z`;
}

interface EpisodeChange {
  lastState: CircuitState;
  recoveringSecs: number;
  closedAt: Date | null;
  resolution: string | null;
}

interface Outcome extends BreakerReportResult {
  deliver: string[];
  visible?: FleetChange["kind"];
  from?: FleetChange["from"];
}

/**
 * Records one breaker snapshot from an SDK instance in one transaction: the latest snapshot per
 * (project, provider, instance) moves only forward in reported_at (a row lock serialises
 * concurrent reports, so a duplicate can never pass twice), a state change writes a transition,
 * an episode opens on open/half_open with none open and closes on closed, and an opening or
 * closing writes its webhook event + outbox row. Deliveries are enqueued after commit.
 */
export async function recordBreakerReport(
  deps: BreakerReportDeps,
  raw: BreakerReportInput,
): Promise<BreakerReportResult> {
  return (await recordBreakerReports(deps, [raw]))[0]!;
}

/**
 * `recordBreakerReport` for many reports in one transaction, with the same rules and the same
 * result as recording them one after another in this order (reports of one instance included):
 * the snapshots are locked in one statement, every report is judged in memory against the row as
 * the reports before it left it, and the episodes, events, outbox rows, transitions and snapshots
 * are written with one multi-row statement each. An outage's burst of transitions then costs a
 * handful of statements per batch instead of a transaction per report. After commit: one live
 * push per visible change, the deliveries enqueued, and one incident evaluation per provider.
 */
export async function recordBreakerReports(
  deps: BreakerReportDeps,
  raws: readonly BreakerReportInput[],
  opts: {
    /**
     * Answer at commit and run the follow-ups (live push, delivery enqueue, incident evaluation)
     * in the background: each is best effort already (a page refetches after a gap, the outbox
     * sweeper enqueues lost deliveries, the incident sweep re-evaluates), and an outage's burst
     * must not wait on them. The SDK API's intake asks for this; other callers get them awaited.
     */
    background?: boolean;
  } = {},
): Promise<BreakerReportResult[]> {
  if (raws.length > MAX_BREAKER_BATCH)
    throw new Error(`at most ${MAX_BREAKER_BATCH} breaker reports at once`);
  const inputs = raws.map((r) => breakerReportInput.parse(r));
  const now = new Date();
  for (const i of inputs) {
    if (i.reportedAt.getTime() > now.getTime() + BREAKER_REPORT_MAX_FUTURE_MS) {
      throw invalid("reported_at must not be more than 5 minutes in the future");
    }
  }
  if (inputs.length === 0) return [];

  const outcomes = await transactWithRetry(() =>
    deps.pg
      ? pgTransaction(deps.pg, (q) => judge(deps, q, inputs, now))
      : deps.db.$transaction((tx) => judge(deps, prismaSqlRun(tx), inputs, now)),
  );
  if (deps.redis) {
    // Redis holds what was committed before anyone hears of it: the intake judges the next reports
    // against it, and a page the live push below refetches counts from it (fleet-counts.ts).
    await settleSnapshots(
      deps.redis,
      inputs.map((i, n) => ({
        projectId: i.projectId,
        provider: i.provider,
        sdkInstanceId: i.sdkInstanceId,
        ...outcomes[n]!.stored,
      })),
    ).catch((err: unknown) =>
      deps.log.warn({ err }, "breaker snapshots not settled in Redis; their next reports settle them"),
    );
  }

  const changes = inputs.flatMap((i, n) => {
    const o = outcomes[n]!;
    return o.visible
      ? [
          {
            projectId: i.projectId,
            provider: i.provider,
            sdkInstanceId: i.sdkInstanceId,
            state: i.state,
            kind: o.visible,
            from: o.from,
          },
        ]
      : [];
  });
  const followUps = async () => {
    await Promise.all([
      publishFleetChanges(deps, changes),
      enqueueWebhookDeliveries(
        deps,
        outcomes.flatMap((o) => o.deliver),
      ),
    ]);
    // A change of who is Down may open, update or resolve the provider incident (heartbeats cannot).
    const pairs = new Map(changes.map((c) => [`${c.projectId}\u0000${c.provider}`, c]));
    await Promise.all(
      [...pairs.values()].map((c) => evaluateIncidentAfterReport(deps, c.projectId, c.provider)),
    );
  };
  if (opts.background) {
    followUps().catch((err: unknown) => deps.log.warn({ err }, "breaker report follow-ups failed"));
  } else {
    await followUps();
  }
  return outcomes.map((o) => ({
    applied: o.applied,
    transition: o.transition,
    eventIds: o.eventIds,
    stored: o.stored,
  }));
}

/** Runs a transaction again (twice at most) when Postgres aborted it as a deadlock or serialization victim. */
async function transactWithRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code = (err as { code?: string; meta?: { code?: string } }).code;
      const transient = code === "P2034" || code === "40P01" || code === "40001";
      if (!transient || attempt >= 2) throw err;
    }
  }
}

/** The batch's transaction: lock, judge each report in order, write everything in a few statements. */
async function judge(deps: Deps, q: SqlRun, inputs: readonly Input[], now: Date): Promise<Outcome[]> {
  const staleCutoff = now.getTime() - deps.config.BREAKER_STALE_SECONDS * 1000;
  // The current row of each key as the reports before this one left it (undefined: none yet).
  const rows = new Map<string, SnapshotRow | undefined>();
  // Open episodes the batch may close: when they opened, and whether their opening was delivered
  // (null: an episode opened before opened_delivered existed, or not seen by the locking statement).
  const episodes = new Map<string, { openedAt: Date; delivered: boolean | null } | null>();
  const take = (r: LockedRow) => {
    rows.set(keyOf(r.project_id, r.provider, r.sdk_instance_id), r);
    if (r.open_episode_id)
      episodes.set(
        r.open_episode_id,
        r.episode_opened_at ? { openedAt: r.episode_opened_at, delivered: r.episode_opened_delivered } : null,
      );
  };
  for (const r of await lockSnapshots(q, inputs)) take(r);

  // First reports: insert their rows (the first report of the key in this batch). ON CONFLICT DO
  // NOTHING makes a concurrent first report wait for ours and then see our row, never insert a
  // second one; a row someone else inserted meanwhile is locked and judged against instead.
  const firsts = new Map<string, Input>();
  for (const i of inputs) {
    const k = keyOf(i.projectId, i.provider, i.sdkInstanceId);
    if (!rows.has(k) && !firsts.has(k)) firsts.set(k, i);
  }
  if (firsts.size > 0) {
    const f = [...firsts.values()];
    const [p, prov, inst] = keyColumns(f);
    const inserted = await q<{ project_id: string; provider: string; sdk_instance_id: string }>(
      `INSERT INTO breaker_snapshots
         (project_id, provider, sdk_instance_id, state, failure_count, success_count, reported_at,
          state_since, received_at, first_seen_at)
       SELECT v.p, v.prov, v.inst, v.st::"CircuitState", v.f, v.sc, v.r, v.r, $8::timestamptz, $8::timestamptz
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int4[], $6::int4[], $7::timestamptz[])
         AS v(p, prov, inst, st, f, sc, r)
       ON CONFLICT DO NOTHING
       RETURNING project_id, provider, sdk_instance_id`,
      [
        p,
        prov,
        inst,
        f.map((i) => i.state),
        f.map((i) => i.failureCount),
        f.map((i) => i.successCount),
        f.map((i) => i.reportedAt.toISOString()),
        now.toISOString(),
      ],
    );
    for (const r of inserted) {
      const k = keyOf(r.project_id, r.provider, r.sdk_instance_id);
      rows.set(k, undefined);
      firsts.delete(k);
    }
    if (firsts.size > 0) {
      for (const r of await lockSnapshots(q, [...firsts.values()])) take(r);
      for (const k of firsts.keys())
        if (!rows.get(k)) throw new Error("breaker snapshot vanished while locked");
    }
  }

  const openedAt = new Map<string, Date>();
  const openedDelivered = new Set<string>();
  // An episode the locking statement did not see (opened by a transaction that committed while it
  // waited for the row lock) is read now.
  const unseen = [...episodes.entries()].flatMap(([id, e]) => (e ? [] : [id]));
  if (unseen.length > 0) {
    for (const e of await q<{ id: string; opened_at: Date; opened_delivered: boolean | null }>(
      "SELECT id, opened_at, opened_delivered FROM breaker_episodes WHERE id = ANY($1::text[])",
      [unseen],
    ))
      episodes.set(e.id, { openedAt: e.opened_at, delivered: e.opened_delivered });
  }
  const unknown: string[] = [];
  for (const [id, e] of episodes) {
    if (!e) continue;
    openedAt.set(id, e.openedAt);
    if (e.delivered === null) unknown.push(id);
    else if (e.delivered) openedDelivered.add(id);
  }
  // Episodes opened before opened_delivered existed: their opening events say.
  if (unknown.length > 0) {
    for (const e of await q<{ episode_id: string }>(
      `SELECT DISTINCT episode_id FROM webhook_events
       WHERE episode_id = ANY($1::text[]) AND type = 'circuit_breaker_opened' AND deliverable`,
      [unknown],
    ))
      openedDelivered.add(e.episode_id);
  }

  const contexts = new Map<string, BreakerEventContext>();
  const context = async (projectId: string) => {
    let c = contexts.get(projectId);
    if (!c) {
      c = await breakerEventContext(q, projectId, now);
      contexts.set(projectId, c);
    }
    return c;
  };

  const newEpisodes: { id: string; i: Input; delivered: boolean }[] = [];
  const episodeChanges = new Map<string, EpisodeChange>();
  const changeOf = (id: string, lastState: CircuitState): EpisodeChange => {
    let c = episodeChanges.get(id);
    if (!c) {
      c = { lastState, recoveringSecs: 0, closedAt: null, resolution: null };
      episodeChanges.set(id, c);
    }
    c.lastState = lastState;
    return c;
  };
  const events: {
    id: string;
    organizationId: string;
    projectId: string;
    episodeId: string;
    type: string;
    payload: string;
    deliverable: boolean;
  }[] = [];
  const transitions: { id: string; i: Input; from: CircuitState | null; episodeId: string | null }[] = [];
  // The last report applied to each key: the snapshot's counts come from it.
  const lastApplied = new Map<string, Input>();
  const outcomes: Outcome[] = [];

  for (const i of inputs) {
    const k = keyOf(i.projectId, i.provider, i.sdkInstanceId);
    const prev = rows.get(k);
    if (prev && i.reportedAt.getTime() <= prev.reported_at.getTime()) {
      outcomes.push({
        applied: false,
        transition: false,
        eventIds: [],
        deliver: [],
        stored: { state: prev.state, reportedAt: prev.reported_at, receivedAt: prev.received_at },
      });
      continue;
    }
    const prevState = prev?.state ?? null;
    const changed = prevState !== i.state;
    const stateSince = changed ? i.reportedAt : (prev?.state_since ?? i.reportedAt);
    let openEpisodeId = prev?.open_episode_id ?? null;
    let transitionEpisodeId = openEpisodeId;
    const fired: { id: string; deliverable: boolean }[] = [];
    // Time spent Recovering inside an episode, credited when the breaker leaves half_open.
    const recoveringSecs =
      prevState === "half_open" && changed && prev?.state_since
        ? Math.max(0, (i.reportedAt.getTime() - prev.state_since.getTime()) / 1000)
        : 0;
    const base = (p: BreakerEventContext, eventId: string, episodeId: string, opened: Date) => ({
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
      opened_at: opened.toISOString(),
      dashboard_url: fleetDashboardUrl(deps.config.PUBLIC_URL, i.projectId, i.provider),
    });

    if (i.state !== "closed" && !openEpisodeId) {
      const episodeId = newId("ep");
      const p = await context(i.projectId);
      const eventId = newId("evt");
      const deliverable = p.breakerWebhooks;
      newEpisodes.push({ id: episodeId, i, delivered: deliverable });
      openedAt.set(episodeId, i.reportedAt);
      openEpisodeId = episodeId;
      transitionEpisodeId = episodeId;
      if (deliverable) openedDelivered.add(episodeId);
      const payload: BreakerOpenedEvent = {
        type: "circuit_breaker_opened",
        timestamp: now.toISOString(),
        data: { ...base(p, eventId, episodeId, i.reportedAt), state: i.state },
      };
      events.push({
        id: eventId,
        organizationId: p.organizationId,
        projectId: i.projectId,
        episodeId,
        type: payload.type,
        payload: JSON.stringify(payload),
        deliverable,
      });
      fired.push({ id: eventId, deliverable });
    } else if (i.state !== "closed" && openEpisodeId && changed) {
      // open ↔ half_open inside an episode: recorded (Recovering), fires nothing.
      changeOf(openEpisodeId, i.state).recoveringSecs += recoveringSecs;
    } else if (i.state === "closed" && openEpisodeId) {
      const c = changeOf(openEpisodeId, "closed");
      c.recoveringSecs += recoveringSecs;
      c.closedAt = i.reportedAt;
      c.resolution = "recovered";
      const opened = openedAt.get(openEpisodeId);
      if (!opened) throw new Error(`breaker episode ${openEpisodeId} not found`);
      const p = await context(i.projectId);
      const eventId = newId("evt");
      // A receiver that was paged for the opening always hears the end, even after a downgrade.
      const deliverable = p.breakerWebhooks || openedDelivered.has(openEpisodeId);
      const payload: BreakerClosedEvent = {
        type: "circuit_breaker_closed",
        timestamp: now.toISOString(),
        data: {
          ...base(p, eventId, openEpisodeId, opened),
          state: "closed",
          closed_at: i.reportedAt.toISOString(),
          duration_seconds: durationSeconds(opened, i.reportedAt),
          resolution: "recovered",
        },
      };
      events.push({
        id: eventId,
        organizationId: p.organizationId,
        projectId: i.projectId,
        episodeId: openEpisodeId,
        type: payload.type,
        payload: JSON.stringify(payload),
        deliverable,
      });
      fired.push({ id: eventId, deliverable });
      openEpisodeId = null;
    }

    if (changed) transitions.push({ id: newId("tr"), i, from: prevState, episodeId: transitionEpisodeId });
    rows.set(k, {
      state: i.state,
      reported_at: i.reportedAt,
      open_episode_id: openEpisodeId,
      state_since: stateSince,
      received_at: now,
    });
    lastApplied.set(k, i);
    // What an open fleet page would show differently: heartbeats and count-only changes are not pushed.
    const visible: FleetChange["kind"] | undefined = !prev
      ? "new_instance"
      : changed
        ? "transition"
        : prev.received_at.getTime() < staleCutoff
          ? "revived"
          : undefined;
    const from: FleetChange["from"] = !prev
      ? null
      : prev.received_at.getTime() < staleCutoff
        ? "stale"
        : prev.state;
    outcomes.push({
      applied: true,
      transition: changed,
      eventIds: fired.map((e) => e.id),
      deliver: fired.filter((e) => e.deliverable).map((e) => e.id),
      visible,
      from,
      stored: { state: i.state, reportedAt: i.reportedAt, receivedAt: now },
    });
  }

  // Everything the batch writes, in one statement: its episodes (a new one with whatever the batch
  // did to it since), events with their outbox rows, transitions and the snapshots.
  const values: unknown[] = [];
  const param = (v: unknown, type: string) => {
    values.push(v);
    return `$${values.length}::${type}`;
  };
  /** `unnest(…) AS v(…)` over columns given as [name, element type, values]. */
  const unnest = (cols: [string, string, readonly unknown[]][]) =>
    `unnest(${cols.map(([, t, v]) => param(v, `${t}[]`)).join(", ")}) AS v(${cols.map(([n]) => n).join(", ")})`;
  const ctes: string[] = [];
  if (newEpisodes.length > 0) {
    const e = newEpisodes.map((x) => ({ ...x, c: episodeChanges.get(x.id) }));
    for (const x of e) episodeChanges.delete(x.id);
    ctes.push(`new_episodes AS (
      INSERT INTO breaker_episodes (id, project_id, provider, sdk_instance_id, opened_at, last_state,
        opened_delivered, recovering_secs, closed_at, resolution)
      SELECT v.id, v.p, v.prov, v.inst, v.opened, v.st::"CircuitState", v.delivered, v.rec, v.closed, v.res
      FROM ${unnest([
        ["id", "text", e.map((x) => x.id)],
        ["p", "text", e.map((x) => x.i.projectId)],
        ["prov", "text", e.map((x) => x.i.provider)],
        ["inst", "text", e.map((x) => x.i.sdkInstanceId)],
        ["opened", "timestamptz", e.map((x) => x.i.reportedAt.toISOString())],
        ["st", "text", e.map((x) => x.c?.lastState ?? x.i.state)],
        ["delivered", "bool", e.map((x) => x.delivered)],
        ["rec", "float8", e.map((x) => x.c?.recoveringSecs ?? 0)],
        ["closed", "timestamptz", e.map((x) => x.c?.closedAt?.toISOString() ?? null)],
        ["res", "text", e.map((x) => x.c?.resolution ?? null)],
      ])})`);
  }
  if (episodeChanges.size > 0) {
    const c = [...episodeChanges.entries()];
    ctes.push(`episode_changes AS (
      UPDATE breaker_episodes e
      SET last_state = v.st::"CircuitState", recovering_secs = e.recovering_secs + v.rec,
          closed_at = coalesce(v.closed, e.closed_at), resolution = coalesce(v.res, e.resolution)
      FROM ${unnest([
        ["id", "text", c.map(([id]) => id)],
        ["st", "text", c.map(([, x]) => x.lastState)],
        ["rec", "float8", c.map(([, x]) => x.recoveringSecs)],
        ["closed", "timestamptz", c.map(([, x]) => x.closedAt?.toISOString() ?? null)],
        ["res", "text", c.map(([, x]) => x.resolution)],
      ])}
      WHERE e.id = v.id)`);
  }
  if (events.length > 0) {
    // The event and, when deliverable, its outbox row: they exist exactly when the change does.
    ctes.push(`event AS (
      INSERT INTO webhook_events (id, organization_id, project_id, type, payload, deliverable, is_test, episode_id, created_at)
      SELECT v.id, v.org, v.p, v.type, v.payload::jsonb, v.deliverable, false, v.ep, v.at
      FROM ${unnest([
        ["id", "text", events.map((x) => x.id)],
        ["org", "text", events.map((x) => x.organizationId)],
        ["p", "text", events.map((x) => x.projectId)],
        ["type", "text", events.map((x) => x.type)],
        ["payload", "text", events.map((x) => x.payload)],
        ["deliverable", "bool", events.map((x) => x.deliverable)],
        ["ep", "text", events.map((x) => x.episodeId)],
        ["at", "timestamptz", events.map((_, n) => microsAfter(now, n))],
      ])}
      RETURNING id, deliverable, created_at)`);
    ctes.push(`outbox AS (
      INSERT INTO webhook_outbox (event_id, created_at, next_attempt_at)
      SELECT id, created_at, created_at FROM event WHERE deliverable)`);
  }
  if (transitions.length > 0) {
    const t = transitions;
    ctes.push(`transition AS (
      INSERT INTO breaker_transitions (id, project_id, provider, sdk_instance_id, from_state, to_state,
        failure_count, success_count, reported_at, recorded_at, episode_id)
      SELECT v.id, v.p, v.prov, v.inst, v.fs::"CircuitState", v.ts::"CircuitState", v.f, v.sc, v.r,
        ${param(now.toISOString(), "timestamptz")}, v.ep
      FROM ${unnest([
        ["id", "text", t.map((x) => x.id)],
        ["p", "text", t.map((x) => x.i.projectId)],
        ["prov", "text", t.map((x) => x.i.provider)],
        ["inst", "text", t.map((x) => x.i.sdkInstanceId)],
        ["fs", "text", t.map((x) => x.from)],
        ["ts", "text", t.map((x) => x.i.state)],
        ["f", "int4", t.map((x) => x.i.failureCount)],
        ["sc", "int4", t.map((x) => x.i.successCount)],
        ["r", "timestamptz", t.map((x) => x.i.reportedAt.toISOString())],
        ["ep", "text", t.map((x) => x.episodeId)],
      ])})`);
  }
  if (lastApplied.size > 0) {
    // The snapshots move forward, each to where its last report in the batch left it.
    const s = [...lastApplied.entries()].map(([k, i]) => ({ i, row: rows.get(k)! }));
    ctes.push(`snapshot AS (
      UPDATE breaker_snapshots b
      SET state = v.st::"CircuitState", failure_count = v.f, success_count = v.sc, reported_at = v.r,
          received_at = ${param(now.toISOString(), "timestamptz")}, state_since = v.since, open_episode_id = v.ep
      FROM ${unnest([
        ["p", "text", s.map((x) => x.i.projectId)],
        ["prov", "text", s.map((x) => x.i.provider)],
        ["inst", "text", s.map((x) => x.i.sdkInstanceId)],
        ["st", "text", s.map((x) => x.row.state)],
        ["f", "int4", s.map((x) => x.i.failureCount)],
        ["sc", "int4", s.map((x) => x.i.successCount)],
        ["r", "timestamptz", s.map((x) => x.row.reported_at.toISOString())],
        ["since", "timestamptz", s.map((x) => x.row.state_since?.toISOString() ?? null)],
        ["ep", "text", s.map((x) => x.row.open_episode_id)],
      ])}
      WHERE b.project_id = v.p AND b.provider = v.prov AND b.sdk_instance_id = v.inst)`);
  }
  if (ctes.length > 0) await q(`WITH ${ctes.join(",\n")}\nSELECT 1`, values);
  return outcomes;
}
