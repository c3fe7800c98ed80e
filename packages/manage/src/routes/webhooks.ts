import {
  type Ctx,
  createWebhookEndpoint,
  createWebhookEndpointInput,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
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
  webhookTestResource,
} from "../schemas";
import { route } from "./define";

const orgOf = (ctx: Ctx) => ctx.organizationId!;
/** As in the dashboard: admins (write keys) see endpoint URLs whole, others with path and query masked. */
const shown = <T extends { url: string }>(ctx: Ctx, e: T): T =>
  roleAtLeast(ctx.role, "admin") ? e : { ...e, url: maskEndpointUrl(e.url) };

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
];
