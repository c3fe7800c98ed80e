import { z } from "zod";
import type { Ctx } from "../context";
import { requireTenant } from "./webhook-endpoint-dto";

export const listWebhookMessagesInput = z.object({
  organizationId: z.string().min(1),
  projectId: z.string().min(1).optional(),
  eventType: z.string().min(1).optional(),
  endpointId: z.string().min(1).optional(),
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

/** The message log: events newest first with every delivery and attempt. Viewer role. */
export async function listWebhookMessages(
  ctx: Ctx,
  raw: z.input<typeof listWebhookMessagesInput>,
): Promise<{ items: WebhookMessageDto[]; nextCursor: string | null }> {
  const input = listWebhookMessagesInput.parse(raw);
  requireTenant(ctx, input.organizationId, "viewer");
  const rows = await ctx.db.webhookEvent.findMany({
    where: {
      organizationId: input.organizationId,
      projectId: input.projectId,
      type: input.eventType,
      ...(input.endpointId ? { deliveries: { some: { endpointId: input.endpointId } } } : {}),
      ...(input.cursor ? { id: { lt: input.cursor } } : {}),
    },
    orderBy: { id: "desc" },
    take: input.limit + 1,
    include: {
      outbox: true,
      deliveries: {
        where: input.endpointId ? { endpointId: input.endpointId } : undefined,
        include: { endpoint: { select: { url: true } }, attempts: { orderBy: { attemptNumber: "asc" } } },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((e) => {
      let status: WebhookMessageDto["status"];
      if (!e.deliverable) status = "not_deliverable";
      else if (!e.outbox)
        status = e.deliveries.every((d) => d.status === "succeeded") ? "delivered" : "failed";
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
    }),
    nextCursor: rows.length > input.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
