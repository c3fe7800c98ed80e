import {
  type Ctx,
  createWebhookEndpoint,
  createWebhookEndpointInput,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  listWebhookMessages,
  listWebhookMessagesInput,
  maskEndpointUrl,
  roleAtLeast,
  sendTestWebhook,
  sendTestWebhookInput,
  updateWebhookEndpoint,
  updateWebhookEndpointInput,
} from "@breakwater/core";
import { pageQuery, paginate } from "../pagination";
import {
  createdWebhookEndpointResource,
  webhookEndpointResource,
  webhookEndpointSummaryResource,
  webhookMessageResource,
  webhookTestResource,
} from "../schemas";
import { route } from "./define";

const orgOf = (ctx: Ctx) => ctx.organizationId!;
/** As in the dashboard: admins (write keys) see endpoint URLs whole, others with path and query masked. */
const shown = <T extends { url: string }>(ctx: Ctx, e: T): T =>
  roleAtLeast(ctx.role, "admin") ? e : { ...e, url: maskEndpointUrl(e.url) };

/** The message log's cursor and core's filters, as query parameters. */
const messagesQuery = pageQuery.extend({
  status: listWebhookMessagesInput.shape.status,
  eventType: listWebhookMessagesInput.shape.eventType,
});

export const webhookRoutes = [
  route({
    operationId: "listWebhookEndpoints",
    method: "GET",
    path: "/webhook-endpoints",
    tag: "Webhooks",
    summary: "List webhook endpoints with their recent health",
    description: "A read key sees URLs with their path and query masked (they can be credentials).",
    scope: "read",
    query: pageQuery,
    response: webhookEndpointSummaryResource,
    list: true,
    handle: async ({ ctx, query }) => {
      const list = await listWebhookEndpoints(ctx, { organizationId: orgOf(ctx) });
      return {
        body: paginate(
          list.map((e) => shown(ctx, e)),
          query,
        ),
      };
    },
  }),
  route({
    operationId: "createWebhookEndpoint",
    method: "POST",
    path: "/webhook-endpoints",
    tag: "Webhooks",
    summary: "Add a webhook endpoint; the answer carries its whsec_ signing secret",
    scope: "write",
    body: createWebhookEndpointInput.omit({ organizationId: true }),
    response: createdWebhookEndpointResource,
    status: 201,
    handle: async ({ ctx, body }) => {
      const { endpoint, secret } = await createWebhookEndpoint(ctx, { ...body, organizationId: orgOf(ctx) });
      return { body: { ...endpoint, secret } };
    },
  }),
  route({
    operationId: "getWebhookEndpoint",
    method: "GET",
    path: "/webhook-endpoints/{endpointId}",
    tag: "Webhooks",
    summary: "Read a webhook endpoint",
    scope: "read",
    response: webhookEndpointResource,
    handle: async ({ ctx, params }) => ({
      body: shown(
        ctx,
        await getWebhookEndpoint(ctx, { organizationId: orgOf(ctx), endpointId: params.endpointId! }),
      ),
    }),
  }),
  route({
    operationId: "updateWebhookEndpoint",
    method: "PATCH",
    path: "/webhook-endpoints/{endpointId}",
    tag: "Webhooks",
    summary: "Change an endpoint's URL, description, filters or format, or disable and re-enable it",
    scope: "write",
    body: updateWebhookEndpointInput.omit({ organizationId: true, endpointId: true }),
    response: webhookEndpointResource,
    handle: async ({ ctx, params, body }) => ({
      body: await updateWebhookEndpoint(ctx, {
        ...body,
        organizationId: orgOf(ctx),
        endpointId: params.endpointId!,
      }),
    }),
  }),
  route({
    operationId: "deleteWebhookEndpoint",
    method: "DELETE",
    path: "/webhook-endpoints/{endpointId}",
    tag: "Webhooks",
    summary: "Delete a webhook endpoint",
    scope: "write",
    status: 204,
    handle: async ({ ctx, params }) => {
      await deleteWebhookEndpoint(ctx, { organizationId: orgOf(ctx), endpointId: params.endpointId! });
      return {};
    },
  }),
  route({
    operationId: "sendTestWebhook",
    method: "POST",
    path: "/webhook-endpoints/{endpointId}/test",
    tag: "Webhooks",
    summary: "Send a sample event to the endpoint now and answer the attempt",
    description:
      "The receiver's answer is reported, not raised: a failing receiver is a 200 with success false.",
    scope: "write",
    body: sendTestWebhookInput.omit({ organizationId: true, endpointId: true }),
    response: webhookTestResource,
    handle: async ({ ctx, params, body }) => ({
      body: await sendTestWebhook(ctx, {
        ...body,
        organizationId: orgOf(ctx),
        endpointId: params.endpointId!,
      }),
    }),
  }),
  route({
    operationId: "listWebhookMessages",
    method: "GET",
    path: "/webhook-endpoints/{endpointId}/messages",
    tag: "Webhooks",
    summary: "The endpoint's message log, newest first, with its delivery and every attempt",
    description:
      "As the dashboard's message log filtered to this endpoint; filter by status and eventType. Keyset-paged: starting_after is the last message id of the page you have, and a page costs the same however long the log is. A read key sees the URL with path and query masked.",
    scope: "read",
    query: messagesQuery,
    response: webhookMessageResource,
    list: true,
    handle: async ({ ctx, params, query }) => {
      const organizationId = orgOf(ctx);
      const endpointId = params.endpointId!;
      // Another organization's endpoint is not found, rather than an empty log.
      await getWebhookEndpoint(ctx, { organizationId, endpointId });
      const page = await listWebhookMessages(ctx, {
        organizationId,
        endpointId,
        status: query.status,
        eventType: query.eventType,
        cursor: query.starting_after,
        limit: query.limit,
      });
      const data = page.items.map((m) => ({
        ...m,
        deliveries: m.deliveries.map((d) => ({ ...d, endpointUrl: shown(ctx, { url: d.endpointUrl }).url })),
      }));
      return { body: { data, has_more: page.nextCursor !== null } };
    },
  }),
];
