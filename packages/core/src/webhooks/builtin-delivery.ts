import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { WebhookEndpoint } from "@breakwater/db";
import type { Deps } from "../context";
import { parseWebhookEvent } from "../events/breaker-events";
import { newId } from "../ids";
import { AddressRefusedError, type Resolve, type WebhookAgents, webhookAgents } from "./address-guard";
import { type ClaimedDelivery, deliveryStatements, type Settled, type Started } from "./delivery-statements";
import { pagerDutyEvent, slackMessage } from "./endpoint-formats";
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
 * A kept-alive socket the receiver closed just as it was reused (nothing of the request was
 * answered) is retried once on a fresh connection, as Node's documentation advises.
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agents: WebhookAgents,
): Promise<HttpOutcome> {
  const first = await postOnce(url, headers, body, timeoutMs, agents);
  if (!first.staleSocket) return first;
  const second = await postOnce(url, headers, body, Math.max(1, timeoutMs - first.latencyMs), agents);
  return { ...second, latencyMs: first.latencyMs + second.latencyMs };
}

function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agents: WebhookAgents,
): Promise<HttpOutcome & { staleSocket?: boolean }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<HttpOutcome & { staleSocket?: boolean }>((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    // keep: the answer was read to its end, so the socket can serve the receiver's next message.
    const finish = (error: string | null, keep = false, staleSocket = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("utf8").slice(0, SNIPPET_BYTES);
      resolve({
        statusCode,
        latencyMs: statusLatency ?? elapsed(),
        error,
        snippet: text.length > 0 ? text : null,
        staleSocket,
      });
      if (!keep) req.destroy();
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
      res.on("end", () => finish(null, true));
      res.on("error", () => finish(null));
      res.on("close", () => finish(null));
    });
    req.on("error", (err: Error & { code?: string }) => {
      if (statusCode !== null) return finish(null);
      if (req.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE"))
        return finish(err.code, false, true);
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

/**
 * Claims one delivery by id (replays and tests): sets claimed_until when nobody holds it, so
 * concurrent senders (a scheduled attempt, a second replay) skip instead of sending it twice.
 */
async function claimDelivery(deps: Deps, deliveryId: string, holdMs: number): Promise<ClaimedDelivery[]> {
  const now = new Date();
  const until = new Date(now.getTime() + holdMs);
  return deps.db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d SET claimed_until = ${until}
    FROM webhook_endpoints e
    WHERE e.id = d.endpoint_id AND d.id = ${deliveryId}
      AND (d.claimed_until IS NULL OR d.claimed_until < ${now})
    RETURNING d.id, d.event_id, d.status, d.attempt_count, d.next_attempt_at, ${now}::timestamptz AS claimed_at,
      e.id AS endpoint_id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, e.enabled, e.failing_since,
      e.format, e.routing_key`;
}

/**
 * Opened signing secrets by endpoint and sealed form: a backlog signs thousands of messages with
 * one endpoint's secret, and opening it (AES-GCM) each time showed in profiles. A rotation changes
 * the sealed form, so a stale entry is never used; the map is emptied when it grows past a bound.
 */
const openedSecrets = new Map<string, string>();
function openedSecret(deps: Deps, endpointId: string, sealed: string): string {
  const key = `${endpointId}|${sealed}`;
  let secret = openedSecrets.get(key);
  if (secret === undefined) {
    secret = openEndpointSecret(deps.config, endpointId, sealed);
    if (openedSecrets.size >= 1_000) openedSecrets.clear();
    openedSecrets.set(key, secret);
  }
  return secret;
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
  settle = false,
  /** Called as soon as the receiver has answered (or failed), before the attempt is recorded. */
  onAnswered?: (outcome: { success: boolean; latencyMs: number }) => void,
): Promise<AttemptResult & { settled: Settled | null }> {
  const schedule = options?.retryScheduleMs ?? RETRY_SCHEDULE_MS;
  const timeoutMs = options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const secrets = signingSecrets(
    {
      secret: openedSecret(deps, d.endpoint_id, d.secret),
      previousSecret: d.previous_secret && openedSecret(deps, d.endpoint_id, d.previous_secret),
      previousSecretExpiresAt: d.previous_secret_expires_at,
    },
    d.claimed_at,
  );
  const body = formattedBody(deps, d, event.payload);
  const ts = Math.floor(Date.now() / 1000);
  const agents = webhookAgents(deps.config.WEBHOOK_ALLOW_PRIVATE_URLS, options?.resolve);
  const http = await post(d.url, webhookHeaders(secrets, event.id, ts, body), body, timeoutMs, agents);
  const success = http.statusCode !== null && http.statusCode >= 200 && http.statusCode < 300;
  onAnswered?.({ success, latencyMs: http.latencyMs });
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

  // The attempt and the delivery's next state in one statement, batched with the other
  // deliveries finishing now: the outbox row is settled only after this has committed.
  const settled = await deliveryStatements(deps.db).record.submit({
    settle,
    eventId: event.id,
    now,
    attemptId: newId("att"),
    deliveryId: d.id,
    trigger,
    startedAt: d.claimed_at,
    latencyMs: http.latencyMs,
    statusCode: http.statusCode,
    success,
    error,
    snippet: http.snippet,
    status,
    nextAttemptAt,
    attemptCount: scheduled,
  });

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
    settled,
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
  const [claimed] = await claimDelivery(deps, args.deliveryId, holdMs);
  if (!claimed) return null;
  const { settled: _, ...result } = await sendClaimed(deps, claimed, args.event, args.trigger, args.options);
  return result;
}

/**
 * For a closing event (an episode's closed, an incident's updated/resolved): the endpoints whose
 * copy of the opening message is still pending, with its next attempt time ("*" = every endpoint,
 * when the opening message has not been fanned out yet). Empty when the opening message was not
 * deliverable or has finished everywhere.
 */
async function openedStillPending(deps: Deps, event: DeliveryEvent): Promise<Map<string, Date | null>> {
  const data = (event.payload as { data?: { episode_id?: string; incident_id?: string } })?.data;
  const incident = event.type.startsWith("provider_incident_");
  const episodeId = incident ? data?.incident_id : data?.episode_id;
  const openedType = incident ? "provider_incident_opened" : "circuit_breaker_opened";
  const waits = new Map<string, Date | null>();
  if (!episodeId) return waits;
  const rows = await deliveryStatements(deps.db).openedPending.submit({
    eventId: event.id,
    episodeId,
    openedType,
  });
  for (const r of rows) {
    if (r.endpointId === null) waits.set("*", null);
    else if (r.status === "pending") waits.set(r.endpointId, r.nextAttemptAt);
  }
  return waits;
}

const FOLLOWS_OPENED = new Set([
  "circuit_breaker_closed",
  "provider_incident_updated",
  "provider_incident_resolved",
]);

/** Types that go ahead of per-instance breaker events at a busy endpoint's lanes. */
function isUrgent(type: string): boolean {
  return type !== "circuit_breaker_opened" && type !== "circuit_breaker_closed";
}

/**
 * The deliveries of opening messages this process is sending right now, by event and endpoint:
 * a closing message whose opening one is in flight here waits for that attempt to be recorded
 * instead of being put back for a retry round trip.
 */
const inFlight = new Map<string, Promise<unknown>>();

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
 * Returns when the next attempt is due, or the final outcome. Each step's statement is shared
 * with the other deliveries of this process at the same step (delivery-statements.ts).
 */
export async function deliverBuiltin(
  deps: Deps,
  event: DeliveryEvent & { organizationId: string; projectId: string; createdAt: Date },
  options?: DeliveryOptions,
  /** The fan-out and claims already made for this run (deliverWebhookEvent's first statement). */
  started?: Pick<Started, "claimed" | "total">,
): Promise<BuiltinOutcome> {
  const statements = deliveryStatements(deps.db);
  const provider = (event.payload as { data?: { provider?: string } })?.data?.provider ?? null;
  const holdMs = (options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS) + 10_000;
  const claimedAt = new Date();
  const claimed =
    started?.claimed ??
    (await statements.fanOutAndClaim.submit({
      event,
      provider,
      claimedAt,
      until: new Date(claimedAt.getTime() + holdMs),
    }));
  // The event's only delivery: its attempt's statement settles the outbox row too.
  const settleWithAttempt = started !== undefined && started.total === 1 && claimed.length === 1;
  let settled: Settled | null | undefined;
  // A closing message waits for its opening one: an episode's closed, an incident's updated/resolved.
  let waitFor = FOLLOWS_OPENED.has(event.type) ? await openedStillPending(deps, event) : new Map();
  if (waitFor.size > 0) {
    // Opening messages this process is sending now: wait for their attempts, then look again.
    const here = claimed
      .map((d) => inFlight.get(openedKey(event, d.endpoint_id)))
      .filter((p): p is Promise<unknown> => p !== undefined);
    if (here.length > 0) {
      await Promise.allSettled(here);
      waitFor = await openedStillPending(deps, event);
    }
  }
  const urgent = isUrgent(event.type);
  const opening = event.type.endsWith("_opened");
  const attempts = await Promise.all(
    claimed.map((d) => {
      if (!opening) return attemptClaimed(d);
      // Registered before anything is awaited, so a closing message claimed in the same batch
      // finds its opening one here and waits for it rather than being put back.
      const key = openedKey(event, d.endpoint_id);
      const work = attemptClaimed(d);
      inFlight.set(key, work);
      return work.finally(() => {
        if (inFlight.get(key) === work) inFlight.delete(key);
      });
    }),
  );

  async function attemptClaimed(d: ClaimedDelivery): Promise<AttemptResult | null> {
    const openedDue = waitFor.get(d.endpoint_id) ?? waitFor.get("*");
    if (openedDue !== undefined) {
      // The episode's opened message has not reached this endpoint yet: the closed one waits
      // for it (no attempt spent), so a receiver hears about an episode in order.
      const at = new Date(Math.max(Date.now() + 250, openedDue?.getTime() ?? 0));
      await statements.release.submit({ deliveryId: d.id, at, status: null });
      return null;
    }
    if (!d.enabled) {
      // Disabled since the fan-out: this message is skipped for it, not retried.
      await statements.release.submit({ deliveryId: d.id, at: null, status: "skipped" });
      return null;
    }
    const lane = options?.lanes ? await options.lanes.acquire(d.endpoint_id, { urgent }) : null;
    if (options?.lanes && !lane) {
      // The endpoint is at its lane limit (busy, or slow and backed off into one lane): put the
      // delivery back, unattempted, and free this slot for other endpoints.
      const at = new Date(Date.now() + options.lanes.retryDelayMs(d.endpoint_id));
      await statements.release.submit({ deliveryId: d.id, at, status: null });
      return null;
    }
    try {
      // The lane bounds requests in flight to the receiver: it frees as soon as the answer is in,
      // not after the attempt is recorded.
      const { settled: s, ...result } = await sendClaimed(
        deps,
        d,
        event,
        "scheduled",
        options,
        settleWithAttempt,
        (answered) => lane?.release(answered),
      );
      if (settleWithAttempt) settled = s;
      lane?.release({ success: result.success, latencyMs: result.latencyMs });
      return result;
    } catch (err) {
      lane?.release({ success: false, latencyMs: 0 });
      throw err;
    }
  }

  const now = new Date();
  const summary =
    settled !== undefined ? settled : await statements.settle.submit({ eventId: event.id, now });
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

/** The in-flight key of an episode's (or incident's) opening message to one endpoint. */
function openedKey(event: DeliveryEvent, endpointId: string): string {
  const data = (event.payload as { data?: { episode_id?: string; incident_id?: string } })?.data;
  return `${data?.incident_id ?? data?.episode_id ?? ""}|${endpointId}`;
}
