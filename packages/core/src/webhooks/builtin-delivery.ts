import type { WebhookEndpoint } from "@breakwater/db";
import type { Deps } from "../context";
import { parseBreakerEvent } from "../events/breaker-events";
import { newId } from "../ids";
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
 * The exact bytes sent. Postgres jsonb does not keep key order, so breaker payloads are re-parsed
 * through their schema, which restores the documented order (type, timestamp, data…).
 */
export function webhookBody(payload: unknown): string {
  try {
    return JSON.stringify(parseBreakerEvent(payload));
  } catch {
    return JSON.stringify(payload);
  }
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

async function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number) {
  const started = performance.now();
  // One deadline covers connect, headers and the snippet read: a receiver that hangs or drips
  // bytes can never hold the worker past it.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Breakwater-Webhooks/1.0", ...headers },
      body,
      redirect: "manual",
      signal,
    });
    const statusCode = res.status;
    let snippet: string | null = null;
    try {
      snippet = await readSnippet(res, 1024);
    } catch {
      // The status is what counts; a body cut short by the deadline is not a failure.
    }
    return {
      statusCode,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      snippet,
    } as HttpOutcome;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const error =
      e.name === "TimeoutError" || e.name === "AbortError"
        ? `no answer within ${timeoutMs / 1000} s`
        : (e.cause?.code ?? e.message).slice(0, 200);
    return { statusCode: null, latencyMs: Math.round(performance.now() - started), error, snippet: null };
  }
}

async function readSnippet(res: Response, max: number): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const text = Buffer.concat(chunks).toString("utf8").slice(0, max);
  return text.length > 0 ? text : null;
}

/** The secrets that sign a request now: the current one, plus the previous one during its grace period. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}

/**
 * One signed POST of an event to an endpoint, recorded as an attempt. A claim on the delivery row
 * (claimed_until) makes concurrent senders — a stalled job's twin, a replay — skip instead of
 * sending twice; returns null when someone else holds it. Scheduled attempts follow
 * RETRY_SCHEDULE_MS; 410 Gone or 5 days of failures disable the endpoint.
 */
export async function attemptDelivery(
  deps: Deps,
  args: {
    deliveryId: string;
    endpoint: WebhookEndpoint;
    event: DeliveryEvent;
    trigger: AttemptTrigger;
    options?: DeliveryOptions;
  },
): Promise<AttemptResult | null> {
  const { endpoint, event, trigger } = args;
  const schedule = args.options?.retryScheduleMs ?? RETRY_SCHEDULE_MS;
  const timeoutMs = args.options?.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const claimAt = new Date();
  const claimed = await deps.db.webhookDelivery.updateMany({
    where: {
      id: args.deliveryId,
      ...(trigger === "scheduled" ? { status: "pending" } : {}),
      OR: [{ claimedUntil: null }, { claimedUntil: { lt: claimAt } }],
    },
    data: { claimedUntil: new Date(claimAt.getTime() + timeoutMs + 10_000) },
  });
  if (claimed.count === 0) return null;

  const body = webhookBody(event.payload);
  const ts = Math.floor(Date.now() / 1000);
  const http = await post(
    endpoint.url,
    webhookHeaders(signingSecrets(endpoint, claimAt), event.id, ts, body),
    body,
    timeoutMs,
  );
  const success = http.statusCode !== null && http.statusCode >= 200 && http.statusCode < 300;
  const gone = http.statusCode === 410;
  const now = new Date();

  return deps.db.$transaction(async (tx) => {
    const delivery = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: args.deliveryId } });
    const attemptNumber = (await tx.webhookAttempt.count({ where: { deliveryId: delivery.id } })) + 1;
    await tx.webhookAttempt.create({
      data: {
        id: newId("att"),
        deliveryId: delivery.id,
        attemptNumber,
        trigger,
        startedAt: claimAt,
        latencyMs: http.latencyMs,
        responseStatus: http.statusCode,
        success,
        error: http.error ?? (success ? null : `HTTP ${http.statusCode}`),
        responseSnippet: http.snippet,
      },
    });

    const ep = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    let disableReason: string | null = null;
    if (success) {
      if (ep.failingSince)
        await tx.webhookEndpoint.update({ where: { id: ep.id }, data: { failingSince: null } });
    } else if (gone) {
      disableReason = "The receiver answered 410 Gone";
    } else if (trigger !== "test") {
      const since = ep.failingSince ?? now;
      if (!ep.failingSince)
        await tx.webhookEndpoint.update({ where: { id: ep.id }, data: { failingSince: since } });
      if (now.getTime() - since.getTime() >= DISABLE_AFTER_FAILING_MS) {
        disableReason = "Every attempt failed for 5 days";
      }
    }
    if (disableReason && ep.enabled) {
      await tx.webhookEndpoint.update({
        where: { id: ep.id },
        data: { enabled: false, disabledReason: disableReason },
      });
      deps.log.warn({ endpointId: ep.id, reason: disableReason }, "webhook endpoint disabled");
    }

    // Only scheduled attempts move along the retry schedule; replays and tests never cost a retry.
    const scheduled = trigger === "scheduled" ? delivery.attemptCount + 1 : delivery.attemptCount;
    let status = delivery.status;
    let nextAttemptAt = delivery.nextAttemptAt;
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
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status, nextAttemptAt, attemptCount: scheduled, lastAttemptAt: claimAt, claimedUntil: null },
    });
    return {
      deliveryId: delivery.id,
      endpointId: ep.id,
      trigger,
      success,
      statusCode: http.statusCode,
      latencyMs: http.latencyMs,
      error: success ? null : (http.error ?? `HTTP ${http.statusCode}`),
      deliveryStatus: status,
    };
  });
}

/** Endpoints of the event's organization that want it: enabled, in scope, filters matching, and older than the event. */
export async function matchingEndpoints(
  deps: Deps,
  event: { organizationId: string; projectId: string; type: string; payload: unknown; createdAt: Date },
): Promise<WebhookEndpoint[]> {
  const endpoints = await deps.db.webhookEndpoint.findMany({
    where: {
      organizationId: event.organizationId,
      enabled: true,
      // An endpoint added after the event does not receive it, whenever the job happens to run.
      createdAt: { lte: event.createdAt },
      OR: [{ projectId: null }, { projectId: event.projectId }],
    },
  });
  const provider = (event.payload as { data?: { provider?: string } })?.data?.provider;
  return endpoints.filter(
    (e) =>
      (e.eventTypes.length === 0 || e.eventTypes.includes(event.type)) &&
      (e.providers.length === 0 || (provider !== undefined && e.providers.includes(provider))),
  );
}

export interface BuiltinOutcome {
  /** null when every delivery has finished; otherwise when the next one is due. */
  retryAt: Date | null;
  outcome: "delivered" | "failed" | "no_endpoints" | null;
  attempts: AttemptResult[];
}

/**
 * Delivers an event with the built-in backend: one delivery row per matching endpoint (unique per
 * event and endpoint, so re-runs never fan out twice), then one attempt for each delivery that is
 * due. Returns when the next attempt is due, or the final outcome.
 */
export async function deliverBuiltin(
  deps: Deps,
  event: DeliveryEvent & { organizationId: string; projectId: string; createdAt: Date },
  options?: DeliveryOptions,
): Promise<BuiltinOutcome> {
  const endpoints = await matchingEndpoints(deps, event);
  if (endpoints.length > 0) {
    await deps.db.webhookDelivery.createMany({
      data: endpoints.map((e) => ({
        id: newId("dlv"),
        eventId: event.id,
        endpointId: e.id,
        status: "pending",
        nextAttemptAt: event.createdAt,
      })),
      skipDuplicates: true,
    });
  }
  const now = new Date();
  const pending = await deps.db.webhookDelivery.findMany({
    where: { eventId: event.id, status: "pending" },
    include: { endpoint: true },
  });
  const attempts = await Promise.all(
    pending
      .filter((d) => !d.nextAttemptAt || d.nextAttemptAt <= now)
      .map(async (d) => {
        if (!d.endpoint.enabled) {
          await deps.db.webhookDelivery.updateMany({
            where: { id: d.id, status: "pending" },
            data: { status: "skipped", nextAttemptAt: null },
          });
          return null;
        }
        return attemptDelivery(deps, {
          deliveryId: d.id,
          endpoint: d.endpoint,
          event,
          trigger: "scheduled",
          options,
        });
      }),
  );

  const all = await deps.db.webhookDelivery.findMany({
    where: { eventId: event.id },
    select: { status: true, nextAttemptAt: true, claimedUntil: true },
  });
  const stillPending = all.filter((d) => d.status === "pending");
  const done = attempts.filter((a): a is AttemptResult => a !== null);
  if (stillPending.length > 0) {
    const due = stillPending.map((d) =>
      Math.max(d.nextAttemptAt?.getTime() ?? now.getTime(), d.claimedUntil?.getTime() ?? 0),
    );
    return { retryAt: new Date(Math.min(...due)), outcome: null, attempts: done };
  }
  const outcome =
    all.length === 0 ? "no_endpoints" : all.every((d) => d.status === "succeeded") ? "delivered" : "failed";
  return { retryAt: null, outcome, attempts: done };
}
