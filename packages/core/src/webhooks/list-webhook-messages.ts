import type { Prisma } from "@breakwater/db";
import { z } from "zod";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { requireTenant } from "./webhook-endpoint-dto";

/** The log's status filter; "failed" covers every way a message finally did not get through. */
export const WEBHOOK_MESSAGE_STATUS_FILTERS = [
  "pending",
  "delivered",
  "failed",
  "not_deliverable",
  "no_endpoints",
] as const;

export const listWebhookMessagesInput = z.object({
  organizationId: z.string().min(1),
  projectId: z.string().min(1).optional(),
  eventType: z.string().min(1).optional(),
  endpointId: z.string().min(1).optional(),
  status: z.enum(WEBHOOK_MESSAGE_STATUS_FILTERS).optional(),
  /** Keyset pagination: pass the previous page's nextCursor. */
  cursor: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(100).default(25),
});

export interface WebhookAttemptDto {
  id: string;
  attemptNumber: number;
  trigger: string;
  startedAt: string;
  latencyMs: number | null;
  responseStatus: number | null;
  success: boolean;
  error: string | null;
  responseSnippet: string | null;
}

export interface WebhookMessageDto {
  /** The event id, also the webhook-id header receivers see. */
  id: string;
  type: string;
  projectId: string;
  episodeId: string | null;
  createdAt: string;
  /** false when the plan did not include breaker webhooks at transition time. */
  deliverable: boolean;
  isTest: boolean;
  payload: unknown;
  status: "pending" | "delivered" | "failed" | "not_deliverable" | "no_endpoints" | "rejected" | "exhausted";
  nextAttemptAt: string | null;
  lastError: string | null;
  deliveries: {
    id: string;
    endpointId: string;
    endpointUrl: string;
    status: string;
    attemptCount: number;
    nextAttemptAt: string | null;
    lastAttemptAt: string | null;
    attempts: WebhookAttemptDto[];
  }[];
}

/** The rows whose derived status (see toWebhookMessageDto) matches the filter. */
function statusWhere(status: (typeof WEBHOOK_MESSAGE_STATUS_FILTERS)[number]): Prisma.WebhookEventWhereInput {
  const done = { completedAt: { not: null } };
  switch (status) {
    case "not_deliverable":
      return { deliverable: false };
    case "pending":
      return { deliverable: true, outbox: { is: { completedAt: null } } };
    case "no_endpoints":
      return { deliverable: true, outbox: { is: { ...done, outcome: "no_endpoints" } } };
    case "delivered":
      return {
        deliverable: true,
        OR: [
          { outbox: { is: { ...done, OR: [{ outcome: "delivered" }, { outcome: null }] } } },
          { outbox: { is: null }, deliveries: { every: { status: "succeeded" } } },
        ],
      };
    case "failed":
      return {
        deliverable: true,
        OR: [
          { outbox: { is: { ...done, outcome: { in: ["failed", "rejected", "exhausted"] } } } },
          { outbox: { is: null }, deliveries: { some: { status: { not: "succeeded" } } } },
        ],
      };
  }
}

const messageInclude = (endpointId?: string) =>
  ({
    outbox: true,
    deliveries: {
      where: endpointId ? { endpointId } : undefined,
      include: { endpoint: { select: { url: true } }, attempts: { orderBy: { attemptNumber: "asc" } } },
      orderBy: { createdAt: "asc" },
    },
  }) satisfies Prisma.WebhookEventInclude;

type MessageRow = Prisma.WebhookEventGetPayload<{ include: ReturnType<typeof messageInclude> }>;

/**
 * The message log: events newest first (by id) with every delivery and attempt, keyset-paged.
 * Filtered to one endpoint, a page is read from that endpoint's deliveries by event id (an index
 * range scan), so it costs the same on an endpoint with 100,000 messages as on one with ten (see
 * endpointPage for the other filters). Viewer role.
 */
export async function listWebhookMessages(
  ctx: Ctx,
  raw: z.input<typeof listWebhookMessagesInput>,
): Promise<{ items: WebhookMessageDto[]; nextCursor: string | null }> {
  const input = listWebhookMessagesInput.parse(raw);
  requireTenant(ctx, input.organizationId, "viewer");
  const eventWhere: Prisma.WebhookEventWhereInput = {
    organizationId: input.organizationId,
    projectId: input.projectId,
    type: input.eventType,
    ...(input.status ? statusWhere(input.status) : {}),
  };
  let rows: MessageRow[];
  let nextCursor: string | null;
  if (input.endpointId) {
    // An endpoint's deliveries are of its organization's events: checking the endpoint once stands
    // for checking every event's organization (another organization's endpoint has no messages here).
    const owned = await ctx.db.webhookEndpoint.findFirst({
      where: { id: input.endpointId, organizationId: input.organizationId },
      select: { id: true },
    });
    if (!owned) return { items: [], nextCursor: null };
    const ids = await endpointPage(ctx, input.endpointId, input, eventWhere);
    const page = ids.slice(0, input.limit);
    nextCursor = ids.length > input.limit ? (page[page.length - 1] ?? null) : null;
    rows = await ctx.db.webhookEvent.findMany({
      where: { id: { in: page } },
      orderBy: { id: "desc" },
      include: messageInclude(input.endpointId),
    });
  } else {
    const found = await ctx.db.webhookEvent.findMany({
      where: { ...eventWhere, ...(input.cursor ? { id: { lt: input.cursor } } : {}) },
      orderBy: { id: "desc" },
      take: input.limit + 1,
      include: messageInclude(),
    });
    rows = found.slice(0, input.limit);
    nextCursor = found.length > input.limit ? (rows[rows.length - 1]?.id ?? null) : null;
  }
  return { items: rows.map(toWebhookMessageDto), nextCursor };
}

/** The first chunk of an endpoint's deliveries read for a filtered page; each next one is 4× larger. */
const FIRST_CHUNK = 100;
const MAX_CHUNK = 5_000;

/**
 * Up to limit + 1 event ids of the endpoint's log after the cursor, newest first. The endpoint's
 * deliveries are read by event id (an index range scan); with a filter, a chunk at a time, each
 * chunk's events filtered by primary key, until the page is full. One filtered query over every
 * event instead would leave Postgres to guess how many pass a status, and a wrong guess (the
 * usual one: "one row") hashes the organization's whole log for every page (0.7 s at 200,000
 * messages, against 30 ms this way). The cost left: a filter that matches nothing reads the whole
 * log once (about 0.5 s at 100,000 messages).
 */
async function endpointPage(
  ctx: Ctx,
  endpointId: string,
  input: { cursor?: string; limit: number; projectId?: string; eventType?: string; status?: string },
  eventWhere: Prisma.WebhookEventWhereInput,
): Promise<string[]> {
  const filtered =
    input.projectId !== undefined || input.eventType !== undefined || input.status !== undefined;
  const want = input.limit + 1;
  const found: string[] = [];
  let before = input.cursor;
  let size = filtered ? FIRST_CHUNK : want;
  for (;;) {
    const chunk = await ctx.db.webhookDelivery.findMany({
      where: { endpointId, ...(before ? { eventId: { lt: before } } : {}) },
      orderBy: { eventId: "desc" },
      take: size,
      select: { eventId: true },
    });
    const ids = chunk.map((d) => d.eventId);
    if (!filtered) return ids;
    if (ids.length > 0) {
      const passed = await ctx.db.webhookEvent.findMany({
        where: { ...eventWhere, id: { in: ids } },
        orderBy: { id: "desc" },
        select: { id: true },
      });
      found.push(...passed.map((e) => e.id));
    }
    if (found.length >= want || ids.length < size) return found.slice(0, want);
    before = ids[ids.length - 1];
    size = Math.min(size * 4, MAX_CHUNK);
  }
}

function toWebhookMessageDto(e: MessageRow): WebhookMessageDto {
  let status: WebhookMessageDto["status"];
  if (!e.deliverable) status = "not_deliverable";
  else if (!e.outbox) status = e.deliveries.every((d) => d.status === "succeeded") ? "delivered" : "failed";
  else if (!e.outbox.completedAt) status = "pending";
  else status = (e.outbox.outcome as WebhookMessageDto["status"] | null) ?? "delivered";
  return {
    id: e.id,
    type: e.type,
    projectId: e.projectId,
    episodeId: e.episodeId,
    createdAt: e.createdAt.toISOString(),
    deliverable: e.deliverable,
    isTest: e.isTest,
    payload: e.payload,
    status,
    nextAttemptAt: e.outbox?.completedAt ? null : (e.outbox?.nextAttemptAt?.toISOString() ?? null),
    lastError: e.outbox?.lastError ?? null,
    deliveries: e.deliveries.map((d) => ({
      id: d.id,
      endpointId: d.endpointId,
      endpointUrl: d.endpoint.url,
      status: d.status,
      attemptCount: d.attemptCount,
      nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
      lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
      attempts: d.attempts.map((a) => ({
        id: a.id,
        attemptNumber: a.attemptNumber,
        trigger: a.trigger,
        startedAt: a.startedAt.toISOString(),
        latencyMs: a.latencyMs,
        responseStatus: a.responseStatus,
        success: a.success,
        error: a.error,
        responseSnippet: a.responseSnippet,
      })),
    })),
  };
}

export const getWebhookMessageInput = z.object({
  organizationId: z.string().min(1),
  eventId: z.string().min(1),
});

/** One message of the log with its payload, every delivery and every attempt. Viewer role. */
export async function getWebhookMessage(
  ctx: Ctx,
  raw: z.input<typeof getWebhookMessageInput>,
): Promise<WebhookMessageDto> {
  const input = getWebhookMessageInput.parse(raw);
  requireTenant(ctx, input.organizationId, "viewer");
  const row = await ctx.db.webhookEvent.findUnique({
    where: { id: input.eventId },
    include: messageInclude(),
  });
  if (!row || row.organizationId !== input.organizationId) throw notFound("Webhook message");
  return toWebhookMessageDto(row);
}
