import {
  createWebhookEndpoint,
  createWebhookEndpointInput,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  getWebhookEndpointSecret,
  getWebhookMessage,
  getWebhookPortalUrl,
  getWebhookSettings,
  listWebhookEndpoints,
  listWebhookEventTypes,
  listWebhookMessages,
  listWebhookMessagesInput,
  maskEndpointUrl,
  type Role,
  replayWebhookMessage,
  roleAtLeast,
  rotateWebhookSecret,
  sendTestWebhook,
  sendTestWebhookInput,
  updateWebhookEndpoint,
  updateWebhookEndpointInput,
} from "@breakwater/core";
import { z } from "zod";
import { authedProcedure, orgProcedure, router } from "../init";

const endpointRef = z.object({ endpointId: z.string().min(1) });

/** Re-exported for the router's tests; masking lives in core (the management API masks the same way). */
export { maskEndpointUrl };

/** Admins and owners (and the operator) see endpoint URLs whole; members and viewers masked. */
function seesUrls(ctx: { role: Role; core: { actor: { type: string; isOperator?: boolean } } }): boolean {
  return roleAtLeast(ctx.role, "admin") || ctx.core.actor.isOperator === true;
}

function maskEndpoint<T extends { url: string }>(e: T): T {
  return { ...e, url: maskEndpointUrl(e.url) };
}

function maskMessage<T extends { deliveries: { endpointUrl: string }[] }>(m: T): T {
  return {
    ...m,
    deliveries: m.deliveries.map((d) => ({ ...d, endpointUrl: maskEndpointUrl(d.endpointUrl) })),
  };
}

/** The webhook pages: endpoints, the event catalogue, the message log with attempts, replay. */
export const webhooksRouter = router({
  /** Which backend delivers (built-in or Svix), whether an App Portal exists, the plan's allowance. */
  settings: orgProcedure("viewer").query(({ ctx }) =>
    getWebhookSettings(ctx.core, { organizationId: ctx.organization.id }),
  ),

  /** Event types with their JSON schema and a sample payload. */
  eventTypes: authedProcedure.query(() => listWebhookEventTypes()),

  /**
   * Endpoints of the active organization (optionally those serving one project) with recent health.
   * Below admin, URLs come with their path and query masked.
   */
  listEndpoints: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1).optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const list = await listWebhookEndpoints(ctx.core, { ...input, organizationId: ctx.organization.id });
      return seesUrls(ctx) ? list : list.map(maskEndpoint);
    }),

  getEndpoint: orgProcedure("viewer")
    .input(endpointRef)
    .query(async ({ ctx, input }) => {
      const e = await getWebhookEndpoint(ctx.core, { ...input, organizationId: ctx.organization.id });
      return seesUrls(ctx) ? e : maskEndpoint(e);
    }),

  /** Adds an endpoint; the response carries its whsec_ secret. Admins and up. */
  createEndpoint: orgProcedure("admin")
    .input(createWebhookEndpointInput.omit({ organizationId: true }))
    .mutation(({ ctx, input }) =>
      createWebhookEndpoint(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  /** Edits URL, description, filters, or enables/disables. Admins and up. */
  updateEndpoint: orgProcedure("admin")
    .input(updateWebhookEndpointInput.omit({ organizationId: true }))
    .mutation(({ ctx, input }) =>
      updateWebhookEndpoint(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  deleteEndpoint: orgProcedure("admin")
    .input(endpointRef)
    .mutation(({ ctx, input }) =>
      deleteWebhookEndpoint(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  /** New secret; the old one keeps signing for 24 h. Admins and up. */
  rotateSecret: orgProcedure("admin")
    .input(endpointRef)
    .mutation(({ ctx, input }) =>
      rotateWebhookSecret(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  /** The endpoint's signing secret ("reveal"). Admins and up. */
  revealSecret: orgProcedure("admin")
    .input(endpointRef)
    .query(({ ctx, input }) =>
      getWebhookEndpointSecret(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  /** Sends a sample event to one endpoint now and returns the attempt (status, latency). */
  sendTest: orgProcedure("admin")
    .input(sendTestWebhookInput.omit({ organizationId: true }))
    .mutation(({ ctx, input }) =>
      sendTestWebhook(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  /** The message log, newest first, with every delivery and attempt; keyset-paginated. */
  listMessages: orgProcedure("viewer")
    .input(listWebhookMessagesInput.omit({ organizationId: true }).default({ limit: 25 }))
    .query(async ({ ctx, input }) => {
      const page = await listWebhookMessages(ctx.core, { ...input, organizationId: ctx.organization.id });
      return seesUrls(ctx) ? page : { ...page, items: page.items.map(maskMessage) };
    }),

  /** One message: its payload, every delivery and every attempt. */
  getMessage: orgProcedure("viewer")
    .input(z.object({ eventId: z.string().min(1) }))
    .query(async ({ ctx, input }) => {
      const m = await getWebhookMessage(ctx.core, { ...input, organizationId: ctx.organization.id });
      return seesUrls(ctx) ? m : maskMessage(m);
    }),

  /** Sends a message to an endpoint again, now, with the same webhook-id. Admins and up. */
  replay: orgProcedure("admin")
    .input(z.object({ eventId: z.string().min(1), endpointId: z.string().min(1) }))
    .mutation(({ ctx, input }) =>
      replayWebhookMessage(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),

  /** A short-lived Svix App Portal link for a project (only when Svix cloud delivers). Admins and up. */
  portalUrl: orgProcedure("admin")
    .input(z.object({ projectId: z.string().min(1) }))
    .mutation(({ ctx, input }) =>
      getWebhookPortalUrl(ctx.core, { ...input, organizationId: ctx.organization.id }),
    ),
});
