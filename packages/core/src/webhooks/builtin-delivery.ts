import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { WebhookEndpoint } from "@breakwater/db";
import type { Deps } from "../context";
import { parseWebhookEvent } from "../events/breaker-events";
import { newId } from "../ids";
import { AddressRefusedError, type Resolve, type WebhookAgents, webhookAgents } from "./address-guard";
import { type EndpointFormat, pagerDutyEvent, slackMessage } from "./endpoint-formats";
import type { EndpointLanes } from "./endpoint-lanes";
import { openEndpointSecret } from "./endpoint-secrets";
import { webhookHeaders } from "./signing";

/** Svix's schedule: the first attempt now, then retries 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h later. */
export const RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
/** A receiver must answer 2xx within this long; it also bounds how long an attempt can hold a worker slot. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** An endpoint whose attempts have failed continuously for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
/** After a rotation the old secret still signs for this long, so receivers can roll over. */
export const SECRET_ROTATION_GRACE_MS = 24 * 3600 * 1000;

export type AttemptTrigger = "scheduled" | "replay" | "test";

export interface DeliveryOptions {
  retryScheduleMs?: number[];
  timeoutMs?: number;
  /** Name resolution for receivers (tests stub it); the system resolver otherwise. */
  resolve?: Resolve;
  /**
   * Per-endpoint lanes (the worker's): a delivery whose endpoint has no free lane is put back
   * for a moment instead of attempted, so a slow endpoint never holds the process's slots.
   */
  lanes?: EndpointLanes;
}

export interface AttemptResult {
  deliveryId: string;
  endpointId: string;
  trigger: AttemptTrigger;
  success: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** What happened to the delivery: still pending (retry scheduled) or finished. */
  deliveryStatus: string;
}

export interface DeliveryEvent {
  id: string;
  type: string;
  payload: unknown;
}

/**
 * The exact bytes sent. Postgres jsonb does not keep key order, so known payloads are re-parsed
 * through their schema, which restores the documented order (type, timestamp, data…).
 */
export function webhookBody(payload: unknown): string {
  try {
    return JSON.stringify(parseWebhookEvent(payload));
  } catch {
    return JSON.stringify(payload);
  }
}

/**
 * The body for the endpoint's format: the Standard Webhooks JSON, a Slack message or a PagerDuty
 * event (same signing headers on every format, so the attempt log and replays work alike).
 */
function formattedBody(
  deps: Deps,
  d: Pick<ClaimedDelivery, "format" | "routing_key" | "endpoint_id">,
  payload: unknown,
): string {
  if (d.format === "standard") return webhookBody(payload);
  let parsed: ReturnType<typeof parseWebhookEvent>;
  try {
    parsed = parseWebhookEvent(payload);
  } catch {
    return webhookBody(payload);
  }
  if (d.format === "slack") return JSON.stringify(slackMessage(parsed));
  const key = d.routing_key ? openEndpointSecret(deps.config, d.endpoint_id, d.routing_key) : "";
  return JSON.stringify(pagerDutyEvent(parsed, key));
}

/** True when the endpoint's URL may receive webhooks (http or https only). */
export function isDeliverableUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}

interface HttpOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  snippet: string | null;
}

/**
 * One POST through the webhook agents (see address-guard.ts): every new connection's addresses are
 * checked at connect time unless WEBHOOK_ALLOW_PRIVATE_URLS is set. Redirects are not followed.
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agents: WebhookAgents,
): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<HttpOutcome>((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("utf8").slice(0, SNIPPET_BYTES);
      resolve({
        statusCode,
        latencyMs: statusLatency ?? elapsed(),
        error,
        snippet: text.length > 0 ? text : null,
      });
      req.destroy();
    };
    let statusLatency: number | null = null;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      resolve({ statusCode: null, latencyMs: 0, error: "invalid URL", snippet: null });
      return;
    }
    const mod = u.protocol === "https:" ? httpsRequest : httpRequest;
    const payload = Buffer.from(body, "utf8");
    // One deadline covers lookup, connect, headers and the snippet read: a receiver that hangs or
    // drips bytes can never hold the slot past it.
    const timer = setTimeout(() => {
      // A status already received counts; a body cut short by the deadline is not a failure.
      finish(statusCode === null ? `no answer within ${timeoutMs / 1000} s` : null);
    }, timeoutMs);
    const req = mod(u, {
      method: "POST",
      agent: u.protocol === "https:" ? agents.https : agents.http,
      headers: {
        "content-type": "application/json",
        "content-length": String(payload.byteLength),
        "user-agent": "Breakwater-Webhooks/1.0",
        ...headers,
      },
    });
    req.on("response", (res) => {
      statusCode = res.statusCode ?? null;
      statusLatency = elapsed();
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        size += c.byteLength;
        if (size >= SNIPPET_BYTES) finish(null);
      });
      res.on("end", () => finish(null));
      res.on("error", () => finish(null));
      res.on("close", () => finish(null));
    });
    req.on("error", (err: Error & { code?: string }) => {
      if (statusCode !== null) return finish(null);
      // A refusal says why; other socket errors say only their code, never a host's answer.
      const error = err instanceof AddressRefusedError ? err.message : (err.code ?? err.message);
      finish(error.slice(0, 200));
    });
    req.end(payload);
  });
}

const SNIPPET_BYTES = 1024;

/** The secrets that sign a request now: the current one, plus the previous one during its grace period. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">,
  now: Date,
): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}

/** A delivery this process holds the claim on, with what sending it needs. */
interface ClaimedDelivery {
  id: string;
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

/**
 * Claims deliveries in one statement: sets claimed_until on rows nobody holds, so concurrent
 * senders (a stalled job's twin, a replay, a re-added job after a Redis loss) skip instead of
 * sending the same message twice. Scheduled sends claim only pending rows that are due.
 */
async function claimDeliveries(
  deps: Deps,
  where: { eventId: string } | { deliveryId: string },
  trigger: AttemptTrigger,
  holdMs: number,
): Promise<ClaimedDelivery[]> {
  const now = new Date();
  const until = new Date(now.getTime() + holdMs);
  const byEvent = "eventId" in where ? where.eventId : null;
  const byId = "deliveryId" in where ? where.deliveryId : null;
  const scheduled = trigger === "scheduled";
  return deps.db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d SET claimed_until = ${until}
    FROM webhook_endpoints e
    WHERE e.id = d.endpoint_id
      AND (${byEvent}::text IS NULL OR d.event_id = ${byEvent})
      AND (${byId}::text IS NULL OR d.id = ${byId})
      AND (NOT ${scheduled} OR (d.status = 'pending' AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= ${now})))
      AND (d.claimed_until IS NULL OR d.claimed_until < ${now})
    RETURNING d.id, d.status, d.attempt_count, d.next_attempt_at, ${now}::timestamptz AS claimed_at,
      e.id AS endpoint_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, e.enabled, e.failing_since,
      e.format, e.routing_key`;
}

/**
 * Sends one claimed delivery and records the attempt, the delivery's next state and the endpoint's
 * failure streak, releasing the claim. Scheduled attempts follow the retry schedule; 410 Gone or
 * 5 days of failures disable the endpoint.
 */
async function sendClaimed(
  deps: Deps,
  d: ClaimedDelivery,
  event: DeliveryEvent,
  trigger: AttemptTrigger,
  options?: DeliveryOptions,
): Promise<AttemptResult> {
  const schedule = options?.retryScheduleMs ?? RETRY_SCHEDULE_MS;
  const timeoutMs = options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const secrets = signingSecrets(
    {
      secret: openEndpointSecret(deps.config, d.endpoint_id, d.secret),
      previousSecret: d.previous_secret && openEndpointSecret(deps.config, d.endpoint_id, d.previous_secret),
      previousSecretExpiresAt: d.previous_secret_expires_at,
    },
    d.claimed_at,
  );
  const body = formattedBody(deps, d, event.payload);
  const ts = Math.floor(Date.now() / 1000);
  const agents = webhookAgents(deps.config.WEBHOOK_ALLOW_PRIVATE_URLS, options?.resolve);
  const http = await post(d.url, webhookHeaders(secrets, event.id, ts, body), body, timeoutMs, agents);
  const success = http.statusCode !== null && http.statusCode >= 200 && http.statusCode < 300;
  const now = new Date();
  const error = success ? null : (http.error ?? `HTTP ${http.statusCode}`);

  let disableReason: string | null = null;
  if (!success && http.statusCode === 410) disableReason = "The receiver answered 410 Gone";
  else if (!success && trigger !== "test" && d.failing_since) {
    if (now.getTime() - d.failing_since.getTime() >= DISABLE_AFTER_FAILING_MS)
      disableReason = "Every attempt failed for 5 days";
  }

  // Only scheduled attempts move along the retry schedule; replays and tests never cost a retry.
  const scheduled = trigger === "scheduled" ? d.attempt_count + 1 : d.attempt_count;
  let status = d.status;
  let nextAttemptAt = d.next_attempt_at;
  if (success) {
    status = "succeeded";
    nextAttemptAt = null;
  } else if (disableReason) {
    status = status === "succeeded" ? status : "failed";
    nextAttemptAt = null;
  } else if (trigger === "scheduled") {
    if (scheduled >= schedule.length) {
      status = "exhausted";
      nextAttemptAt = null;
    } else {
      nextAttemptAt = new Date(now.getTime() + (schedule[scheduled] ?? 0));
    }
  } else if (trigger === "test") {
    status = "failed";
  }

  // One statement records the attempt and moves the delivery on (attempt numbers are per delivery;
  // the claim guarantees nobody else writes this delivery meanwhile).
  await deps.db.$executeRaw`
    WITH attempt AS (
      INSERT INTO webhook_attempts
        (id, delivery_id, attempt_number, trigger, started_at, latency_ms, response_status, success, error, response_snippet)
      VALUES (${newId("att")}, ${d.id}, (SELECT count(*) + 1 FROM webhook_attempts WHERE delivery_id = ${d.id}),
        ${trigger}, ${d.claimed_at}, ${http.latencyMs}, ${http.statusCode}, ${success}, ${error}, ${http.snippet})
    )
    UPDATE webhook_deliveries
    SET status = ${status}, next_attempt_at = ${nextAttemptAt}, attempt_count = ${scheduled},
        last_attempt_at = ${d.claimed_at}, claimed_until = NULL
    WHERE id = ${d.id}`;

  // The endpoint's failure streak changes rarely: only then is it written.
  if (disableReason) {
    const n = await deps.db.$executeRaw`
      UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${disableReason}, updated_at = now()
      WHERE id = ${d.endpoint_id} AND enabled`;
    if (n > 0)
      deps.log.warn({ endpointId: d.endpoint_id, reason: disableReason }, "webhook endpoint disabled");
  } else if (success && d.failing_since) {
    await deps.db.$executeRaw`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${d.endpoint_id}`;
  } else if (!success && trigger !== "test" && !d.failing_since) {
    await deps.db.$executeRaw`
      UPDATE webhook_endpoints SET failing_since = ${now} WHERE id = ${d.endpoint_id} AND failing_since IS NULL`;
  }

  return {
    deliveryId: d.id,
    endpointId: d.endpoint_id,
    trigger,
    success,
    statusCode: http.statusCode,
    latencyMs: http.latencyMs,
    error,
    deliveryStatus: status,
  };
}

/**
 * One signed POST of an event to one delivery's endpoint, recorded as an attempt (replays and
 * tests; scheduled sends go through deliverBuiltin). Returns null when another sender holds the
 * delivery right now.
 */
export async function attemptDelivery(
  deps: Deps,
  args: { deliveryId: string; event: DeliveryEvent; trigger: AttemptTrigger; options?: DeliveryOptions },
): Promise<AttemptResult | null> {
  const holdMs = (args.options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS) + 10_000;
  const [claimed] = await claimDeliveries(deps, { deliveryId: args.deliveryId }, args.trigger, holdMs);
  if (!claimed) return null;
  return sendClaimed(deps, claimed, args.event, args.trigger, args.options);
}

/**
 * For a closed event: the endpoints whose copy of the episode's opened message is still pending,
 * with its next attempt time ("*" = every endpoint, when the opened message has not been fanned
 * out yet). Empty when the opened message was not deliverable or has finished everywhere.
 */
async function openedStillPending(deps: Deps, event: DeliveryEvent): Promise<Map<string, Date | null>> {
  const data = (event.payload as { data?: { episode_id?: string; incident_id?: string } })?.data;
  const incident = event.type.startsWith("provider_incident_");
  const episodeId = incident ? data?.incident_id : data?.episode_id;
  const openedType = incident ? "provider_incident_opened" : "circuit_breaker_opened";
  const waits = new Map<string, Date | null>();
  if (!episodeId) return waits;
  const rows = await deps.db.$queryRaw<
    { endpoint_id: string | null; status: string | null; next_attempt_at: Date | null }[]
  >`
    SELECT d.endpoint_id, d.status, d.next_attempt_at
    FROM webhook_events e
    JOIN webhook_outbox o ON o.event_id = e.id AND o.completed_at IS NULL
    LEFT JOIN webhook_deliveries d ON d.event_id = e.id
    WHERE e.episode_id = ${episodeId} AND e.type = ${openedType} AND e.id <> ${event.id}`;
  for (const r of rows) {
    if (r.endpoint_id === null) waits.set("*", null);
    else if (r.status === "pending") waits.set(r.endpoint_id, r.next_attempt_at);
  }
  return waits;
}

const FOLLOWS_OPENED = new Set([
  "circuit_breaker_closed",
  "provider_incident_updated",
  "provider_incident_resolved",
]);

export interface BuiltinOutcome {
  /** null when every delivery has finished; otherwise when the next one is due. */
  retryAt: Date | null;
  outcome: "delivered" | "failed" | "no_endpoints" | null;
  attempts: AttemptResult[];
}

/**
 * Delivers an event with the built-in backend and settles its outbox row: one delivery row per matching endpoint — enabled,
 * in scope, filters matching, created before the event — inserted once (unique per event and
 * endpoint, so re-runs never fan out twice), then one attempt for each delivery that is due.
 * Returns when the next attempt is due, or the final outcome.
 */
export async function deliverBuiltin(
  deps: Deps,
  event: DeliveryEvent & { organizationId: string; projectId: string; createdAt: Date },
  options?: DeliveryOptions,
): Promise<BuiltinOutcome> {
  const provider = (event.payload as { data?: { provider?: string } })?.data?.provider ?? null;
  // Ids as newId("dlv") makes them: 12 hex digits of milliseconds, then 12 random hex digits.
  await deps.db.$executeRaw`
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at)
    SELECT 'dlv_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
             || substr(replace(gen_random_uuid()::text, '-', ''), 1, 12),
           ${event.id}, e.id, 'pending', ${event.createdAt}, now()
    FROM webhook_endpoints e
    WHERE e.organization_id = ${event.organizationId} AND e.enabled AND e.created_at <= ${event.createdAt}
      AND (e.project_id IS NULL OR e.project_id = ${event.projectId})
      AND (cardinality(e.event_types) = 0 OR ${event.type} = ANY(e.event_types))
      AND (cardinality(e.providers) = 0 OR ${provider}::text = ANY(e.providers))
      -- Slack and PagerDuty endpoints take provider incidents only (PagerDuty: trigger and resolve).
      AND (e.format = 'standard'
        OR ${event.type} IN ('provider_incident_opened', 'provider_incident_resolved')
        OR (e.format = 'slack' AND ${event.type} = 'provider_incident_updated'))
    ON CONFLICT (event_id, endpoint_id) DO NOTHING`;

  const holdMs = (options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS) + 10_000;
  const claimed = await claimDeliveries(deps, { eventId: event.id }, "scheduled", holdMs);
  // A closing message waits for its opening one: an episode's closed, an incident's updated/resolved.
  const waitFor = FOLLOWS_OPENED.has(event.type) ? await openedStillPending(deps, event) : new Map();
  const attempts = await Promise.all(
    claimed.map(async (d) => {
      const openedDue = waitFor.get(d.endpoint_id) ?? waitFor.get("*");
      if (openedDue !== undefined) {
        // The episode's opened message has not reached this endpoint yet: the closed one waits
        // for it (no attempt spent), so a receiver hears about an episode in order.
        const at = new Date(Math.max(Date.now() + 250, openedDue?.getTime() ?? 0));
        await deps.db.$executeRaw`
          UPDATE webhook_deliveries SET next_attempt_at = ${at}, claimed_until = NULL WHERE id = ${d.id}`;
        return null;
      }
      if (!d.enabled) {
        // Disabled since the fan-out: this message is skipped for it, not retried.
        await deps.db.$executeRaw`
          UPDATE webhook_deliveries SET status = 'skipped', next_attempt_at = NULL, claimed_until = NULL
          WHERE id = ${d.id}`;
        return null;
      }
      const lane = options?.lanes?.tryAcquire(d.endpoint_id);
      if (options?.lanes && !lane) {
        // The endpoint is at its lane limit (busy, or slow and backed off into one lane): put the
        // delivery back, unattempted, and free this slot for other endpoints.
        const at = new Date(Date.now() + options.lanes.retryDelayMs(d.endpoint_id));
        await deps.db.$executeRaw`
          UPDATE webhook_deliveries SET next_attempt_at = ${at}, claimed_until = NULL WHERE id = ${d.id}`;
        return null;
      }
      try {
        const result = await sendClaimed(deps, d, event, "scheduled", options);
        lane?.release({ success: result.success, latencyMs: result.latencyMs });
        return result;
      } catch (err) {
        lane?.release({ success: false, latencyMs: 0 });
        throw err;
      }
    }),
  );

  // One statement sums up the deliveries and settles the outbox row: completed when none is
  // pending, otherwise due when the earliest pending one is (or when its claim runs out).
  const now = new Date();
  const [summary] = await deps.db.$queryRaw<
    { total: number; pending: number; succeeded: number; due: Date | null }[]
  >`
    WITH s AS (
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE status = 'pending')::int AS pending,
             count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
             min(greatest(coalesce(next_attempt_at, ${now}), coalesce(claimed_until, ${now})))
               FILTER (WHERE status = 'pending') AS due
      FROM webhook_deliveries WHERE event_id = ${event.id}
    )
    UPDATE webhook_outbox o SET
      completed_at = CASE WHEN s.pending = 0 THEN ${now}::timestamptz END,
      outcome = CASE WHEN s.pending > 0 THEN NULL WHEN s.total = 0 THEN 'no_endpoints'
                     WHEN s.succeeded = s.total THEN 'delivered' ELSE 'failed' END,
      next_attempt_at = CASE WHEN s.pending > 0 THEN s.due END
    FROM s WHERE o.event_id = ${event.id}
    RETURNING s.total, s.pending, s.succeeded, s.due`;
  const done = attempts.filter((a): a is AttemptResult => a !== null);
  if (summary && summary.pending > 0) return { retryAt: summary.due ?? now, outcome: null, attempts: done };
  const outcome =
    !summary || summary.total === 0
      ? "no_endpoints"
      : summary.succeeded === summary.total
        ? "delivered"
        : "failed";
  return { retryAt: null, outcome, attempts: done };
}
