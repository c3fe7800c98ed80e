import type { Config } from "@breakwater/config";
import { ApiException, Svix } from "svix";
import type { Deps } from "../context";
import { EVENT_CATALOGUE } from "../events/breaker-events";
import { webhookBody } from "./builtin-delivery";

/** Svix API calls give up after this long; the job then retries with backoff. */
const SVIX_TIMEOUT_MS = 10_000;
/** A message Svix has not accepted after this long is given up (outbox outcome "exhausted"). */
export const SVIX_GIVE_UP_MS = 3 * 24 * 3600 * 1000;

const clients = new Map<string, Svix>();
const knownApps = new Set<string>();

/** True when webhooks go through Svix (SVIX_API_KEY set) rather than the built-in sender. */
export function usesSvix(config: Config): boolean {
  return Boolean(config.SVIX_API_KEY);
}

/** True on Svix's cloud (no SVIX_SERVER_URL), where the App Portal exists. */
export function usesSvixCloud(config: Config): boolean {
  return usesSvix(config) && !config.SVIX_SERVER_URL;
}

/** The process's Svix client. The client's own quick retries are off: the job's backoff owns retries. */
export function svixClient(config: Config): Svix {
  if (!config.SVIX_API_KEY) throw new Error("SVIX_API_KEY is not set");
  const key = `${config.SVIX_SERVER_URL ?? ""}|${config.SVIX_API_KEY}`;
  let client = clients.get(key);
  if (!client) {
    client = new Svix(config.SVIX_API_KEY, {
      serverUrl: config.SVIX_SERVER_URL,
      requestTimeout: SVIX_TIMEOUT_MS,
      retryScheduleInMs: [],
    });
    clients.set(key, client);
  }
  return client;
}

/** The Svix application of a project (uid = project id), created on first use. */
export async function ensureSvixApp(config: Config, projectId: string, projectName: string): Promise<void> {
  if (knownApps.has(projectId)) return;
  await svixClient(config).application.getOrCreate({ name: projectName, uid: projectId });
  knownApps.add(projectId);
}

/** Registers (or refreshes) the event types with their schemas; called at worker start. */
export async function registerSvixEventTypes(deps: Deps): Promise<void> {
  const svix = svixClient(deps.config);
  for (const e of EVENT_CATALOGUE) {
    const body = { name: e.type, description: e.description, schemas: { "1": e.schema } };
    try {
      await svix.eventType.create(body);
    } catch (err) {
      if (err instanceof ApiException && err.code === 409) {
        await svix.eventType.update(e.type, { description: e.description, schemas: body.schemas });
      } else {
        throw err;
      }
    }
  }
}

export type SvixOutcome =
  | { kind: "delivered"; messageId: string }
  | { kind: "rejected"; error: string; statusCode: number }
  | { kind: "retry"; error: string; statusCode: number | null };

/** Whether Svix's answer is worth retrying: rate limits, server errors, timeouts, network failures. */
export function svixRetryable(statusCode: number | null): boolean {
  return statusCode === null || statusCode === 408 || statusCode === 429 || statusCode >= 500;
}

/**
 * Hands one event to Svix: message.create in the project's application with eventId and the
 * idempotency key both equal to the event id, and the provider as channel — so a retried call can
 * never produce a second message. 4xx is final; 429/5xx/timeouts are retryable.
 */
export async function deliverViaSvix(
  deps: Deps,
  event: { id: string; type: string; projectId: string; payload: unknown },
): Promise<SvixOutcome> {
  const data = (event.payload as { data?: { provider?: string; project_name?: string } }).data ?? {};
  try {
    await ensureSvixApp(deps.config, event.projectId, data.project_name ?? event.projectId);
    const msg = await svixClient(deps.config).message.create(
      event.projectId,
      {
        eventType: event.type,
        eventId: event.id,
        payload: JSON.parse(webhookBody(event.payload)),
        channels: data.provider ? [data.provider] : undefined,
      },
      { idempotencyKey: event.id },
    );
    return { kind: "delivered", messageId: msg.id };
  } catch (err) {
    if (err instanceof ApiException) {
      // 409: a message with this eventId already exists — an earlier attempt got through.
      if (err.code === 409) return { kind: "delivered", messageId: "" };
      const error = `Svix answered ${err.code}: ${JSON.stringify(err.body).slice(0, 300)}`;
      return svixRetryable(err.code)
        ? { kind: "retry", error, statusCode: err.code }
        : { kind: "rejected", error, statusCode: err.code };
    }
    const e = err as Error;
    return {
      kind: "retry",
      error: `Svix unreachable: ${e.name === "TimeoutError" ? "timeout" : e.message}`.slice(0, 300),
      statusCode: null,
    };
  }
}
