import { ApiException, type EndpointOut } from "svix";
import { recordAudit } from "../audit/record-audit";
import type { Ctx } from "../context";
import { resolveEntitlements } from "../entitlements/resolve-entitlements";
import { invalid, limitExceeded, notFound } from "../errors";
import type { AttemptResult } from "./builtin-delivery";
import { ensureSvixApp, svixClient } from "./svix-delivery";
import type { WebhookEndpointDto, WebhookEndpointSummary } from "./webhook-endpoint-dto";

/**
 * With the Svix backend, endpoints live in Svix — one application per project — and Breakwater's
 * endpoint pages manage them over Svix's endpoint API (self-hosted svix-server has no App Portal).
 * An endpoint's id on these pages is `<project id>.<Svix endpoint id>`: the application is part of it.
 */
export function svixEndpointRef(id: string): { projectId: string; endpointId: string } {
  const [projectId, endpointId, ...rest] = id.split(".");
  if (!projectId || !endpointId || rest.length > 0) throw notFound("Webhook endpoint");
  return { projectId, endpointId };
}

async function tenantProject(ctx: Ctx, organizationId: string, projectId: string) {
  const p = await ctx.db.project.findUnique({
    where: { id: projectId },
    select: { id: true, name: true, organizationId: true },
  });
  if (!p || p.organizationId !== organizationId) throw notFound("Webhook endpoint");
  return p;
}

/** Svix errors on these pages: 404 is NOT_FOUND, other 4xx are the caller's, the rest unavailable. */
async function svixCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiException) {
      if (err.code === 404) throw notFound("Webhook endpoint");
      if (err.code >= 400 && err.code < 500 && err.code !== 429) {
        const detail = (err.body as { detail?: unknown } | undefined)?.detail;
        throw invalid(`Svix refused: ${typeof detail === "string" ? detail : `HTTP ${err.code}`}`);
      }
    }
    // Svix down or failing: an internal error (the edge logs it and shows a generic message).
    throw err;
  }
}

function toDto(organizationId: string, projectId: string, e: EndpointOut): WebhookEndpointDto {
  return {
    id: `${projectId}.${e.id}`,
    organizationId,
    projectId,
    url: e.url,
    description: e.description,
    eventTypes: e.filterTypes ?? [],
    providers: e.channels ?? [],
    format: "standard",
    routingKeyHint: null,
    enabled: !e.disabled,
    disabledReason: e.disabled ? "Disabled in Svix" : null,
    failingSince: null,
    secretPrefix: "whsec_…",
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

async function listApp(ctx: Ctx, projectId: string): Promise<EndpointOut[]> {
  try {
    const out: EndpointOut[] = [];
    let iterator: string | null | undefined;
    do {
      const page = await svixClient(ctx.config).endpoint.list(projectId, { limit: 250, iterator });
      out.push(...page.data);
      iterator = page.done ? null : page.iterator;
    } while (iterator);
    return out;
  } catch (err) {
    // No application yet: the project has never had an endpoint or an event.
    if (err instanceof ApiException && err.code === 404) return [];
    throw err;
  }
}

export async function svixListEndpoints(
  ctx: Ctx,
  organizationId: string,
  projectId?: string,
): Promise<WebhookEndpointSummary[]> {
  const projects = await ctx.db.project.findMany({
    where: { organizationId, archivedAt: null, ...(projectId ? { id: projectId } : {}) },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  const lists = await svixCall(() => Promise.all(projects.map((p) => listApp(ctx, p.id))));
  return projects.flatMap((p, i) =>
    (lists[i] ?? []).map((e) => ({
      ...toDto(organizationId, p.id, e),
      lastAttempt: null,
      last24h: { succeeded: 0, failed: 0, pending: 0 },
    })),
  );
}

export async function svixGetEndpoint(
  ctx: Ctx,
  organizationId: string,
  id: string,
): Promise<WebhookEndpointDto> {
  const ref = svixEndpointRef(id);
  await tenantProject(ctx, organizationId, ref.projectId);
  const e = await svixCall(() => svixClient(ctx.config).endpoint.get(ref.projectId, ref.endpointId));
  return toDto(organizationId, ref.projectId, e);
}

export async function svixCreateEndpoint(
  ctx: Ctx,
  input: {
    organizationId: string;
    projectId?: string;
    url: string;
    description: string;
    eventTypes: string[];
    providers: string[];
  },
): Promise<{ endpoint: WebhookEndpointDto; secret: string }> {
  if (!input.projectId) throw invalid("With Svix, an endpoint belongs to one project: choose the project");
  const project = await tenantProject(ctx, input.organizationId, input.projectId);
  const ent = await resolveEntitlements(ctx.db, input.organizationId);
  const max = ent.values.max_webhook_endpoints;
  if (max !== null && (await svixListEndpoints(ctx, input.organizationId)).length >= max) {
    throw limitExceeded(
      max === 0
        ? "Your plan does not include webhook endpoints; upgrade to add one"
        : `Your plan allows ${max} webhook endpoint${max === 1 ? "" : "s"}`,
    );
  }
  const svix = svixClient(ctx.config);
  const created = await svixCall(async () => {
    await ensureSvixApp(ctx.config, project.id, project.name);
    return svix.endpoint.create(project.id, {
      url: input.url,
      description: input.description,
      filterTypes: input.eventTypes.length > 0 ? input.eventTypes : null,
      channels: input.providers.length > 0 ? input.providers : null,
    });
  });
  const { key } = await svixCall(() => svix.endpoint.getSecret(project.id, created.id));
  const endpoint = toDto(input.organizationId, project.id, created);
  await ctx.db.$transaction((tx) =>
    recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_endpoint.create",
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      after: {
        url: input.url,
        projectId: project.id,
        eventTypes: input.eventTypes,
        providers: input.providers,
        backend: "svix",
      },
    }),
  );
  return { endpoint, secret: key };
}

export async function svixUpdateEndpoint(
  ctx: Ctx,
  input: {
    organizationId: string;
    endpointId: string;
    url?: string;
    description?: string;
    eventTypes?: string[];
    providers?: string[];
    enabled?: boolean;
  },
): Promise<WebhookEndpointDto> {
  const before = await svixGetEndpoint(ctx, input.organizationId, input.endpointId);
  const ref = svixEndpointRef(input.endpointId);
  const updated = await svixCall(() =>
    svixClient(ctx.config).endpoint.patch(ref.projectId, ref.endpointId, {
      url: input.url,
      description: input.description,
      filterTypes:
        input.eventTypes === undefined ? undefined : input.eventTypes.length > 0 ? input.eventTypes : null,
      channels:
        input.providers === undefined ? undefined : input.providers.length > 0 ? input.providers : null,
      disabled: input.enabled === undefined ? undefined : !input.enabled,
    }),
  );
  const after = toDto(input.organizationId, ref.projectId, updated);
  const pick = (e: WebhookEndpointDto) => ({
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    providers: e.providers,
    enabled: e.enabled,
  });
  await ctx.db.$transaction((tx) =>
    recordAudit(tx, ctx.actor, {
      organizationId: input.organizationId,
      action: "webhook_endpoint.update",
      targetType: "webhook_endpoint",
      targetId: after.id,
      before: pick(before),
      after: pick(after),
    }),
  );
  return after;
}

export async function svixDeleteEndpoint(ctx: Ctx, organizationId: string, id: string): Promise<void> {
  const before = await svixGetEndpoint(ctx, organizationId, id);
  const ref = svixEndpointRef(id);
  await svixCall(() => svixClient(ctx.config).endpoint.delete(ref.projectId, ref.endpointId));
  await ctx.db.$transaction((tx) =>
    recordAudit(tx, ctx.actor, {
      organizationId,
      action: "webhook_endpoint.delete",
      targetType: "webhook_endpoint",
      targetId: id,
      before: {
        url: before.url,
        eventTypes: before.eventTypes,
        providers: before.providers,
        enabled: before.enabled,
      },
    }),
  );
}

export async function svixGetSecret(
  ctx: Ctx,
  organizationId: string,
  id: string,
): Promise<{ secret: string }> {
  const ref = svixEndpointRef(id);
  await tenantProject(ctx, organizationId, ref.projectId);
  const { key } = await svixCall(() =>
    svixClient(ctx.config).endpoint.getSecret(ref.projectId, ref.endpointId),
  );
  return { secret: key };
}

export async function svixRotateSecret(
  ctx: Ctx,
  organizationId: string,
  id: string,
): Promise<{ secret: string; previousValidUntil: string }> {
  const ref = svixEndpointRef(id);
  await tenantProject(ctx, organizationId, ref.projectId);
  const svix = svixClient(ctx.config);
  await svixCall(() => svix.endpoint.rotateSecret(ref.projectId, ref.endpointId, {}));
  const { key } = await svixCall(() => svix.endpoint.getSecret(ref.projectId, ref.endpointId));
  await ctx.db.$transaction((tx) =>
    recordAudit(tx, ctx.actor, {
      organizationId,
      action: "webhook_endpoint.rotate_secret",
      targetType: "webhook_endpoint",
      targetId: id,
    }),
  );
  // Svix keeps signing with the old secret for 24 hours too.
  return { secret: key, previousValidUntil: new Date(Date.now() + 24 * 3600 * 1000).toISOString() };
}

/** Svix sends the event type's example to the endpoint; the answer is Svix accepting it. */
export async function svixSendTest(
  ctx: Ctx,
  organizationId: string,
  id: string,
  eventType: string,
): Promise<AttemptResult & { eventId: string }> {
  const ref = svixEndpointRef(id);
  await tenantProject(ctx, organizationId, ref.projectId);
  const started = performance.now();
  const msg = await svixCall(() =>
    svixClient(ctx.config).endpoint.sendExample(ref.projectId, ref.endpointId, { eventType }),
  );
  return {
    eventId: msg.id,
    deliveryId: msg.id,
    endpointId: id,
    trigger: "test",
    success: true,
    statusCode: null,
    latencyMs: Math.round(performance.now() - started),
    error: null,
    deliveryStatus: "queued in Svix",
  };
}

/** Asks Svix to send a message (found by its eventId = Breakwater's event id) to an endpoint again. */
export async function svixReplay(
  ctx: Ctx,
  organizationId: string,
  eventId: string,
  id: string,
): Promise<AttemptResult> {
  const ref = svixEndpointRef(id);
  await tenantProject(ctx, organizationId, ref.projectId);
  const event = await ctx.db.webhookEvent.findUnique({
    where: { id: eventId },
    select: { organizationId: true, projectId: true },
  });
  if (!event || event.organizationId !== organizationId || event.projectId !== ref.projectId) {
    throw notFound("Webhook message");
  }
  const started = performance.now();
  await svixCall(() => svixClient(ctx.config).messageAttempt.resend(ref.projectId, eventId, ref.endpointId));
  return {
    deliveryId: eventId,
    endpointId: id,
    trigger: "replay",
    success: true,
    statusCode: null,
    latencyMs: Math.round(performance.now() - started),
    error: null,
    deliveryStatus: "queued in Svix",
  };
}
