import { createApiKey, createApiKeyInput, listApiKeys, notFound, revokeApiKey } from "@breakwater/core";
import { pageQuery, paginate } from "../pagination";
import { apiKeyResource, createdApiKeyResource } from "../schemas";
import { route } from "./define";

export const apiKeyRoutes = [
  route({
    operationId: "listApiKeys",
    method: "GET",
    path: "/projects/{projectId}/api-keys",
    tag: "API keys",
    summary: "List a project's SDK keys (prefixes only), revoked ones included",
    scope: "read",
    query: pageQuery,
    response: apiKeyResource,
    list: true,
    handle: async ({ ctx, params, query }) => ({
      body: paginate(await listApiKeys(ctx, params.projectId!), query),
    }),
  }),
  route({
    operationId: "createApiKey",
    method: "POST",
    path: "/projects/{projectId}/api-keys",
    tag: "API keys",
    summary: "Create an SDK key; the key is in this answer only",
    scope: "write",
    body: createApiKeyInput.pick({ name: true, readOnly: true }),
    response: createdApiKeyResource,
    status: 201,
    handle: async ({ ctx, params, body }) => {
      const { apiKey, key } = await createApiKey(ctx, { ...body, projectId: params.projectId! });
      return { body: { ...key, key: apiKey } };
    },
  }),
  route({
    operationId: "revokeApiKey",
    method: "DELETE",
    path: "/projects/{projectId}/api-keys/{keyId}",
    tag: "API keys",
    summary: "Revoke an SDK key",
    description: "SDKs using it get 401 from their next request on every replica. Answers the revoked key.",
    scope: "write",
    response: apiKeyResource,
    handle: async ({ ctx, params }) => {
      const keys = await listApiKeys(ctx, params.projectId!);
      if (!keys.some((k) => k.id === params.keyId)) throw notFound("API key");
      return { body: await revokeApiKey(ctx, { keyId: params.keyId! }) };
    },
  }),
];
