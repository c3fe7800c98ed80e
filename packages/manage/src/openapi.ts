import { z } from "zod";
import { MANAGE_BASE } from "./pipeline";
import { PROBLEM_TYPES, problemTypeUri } from "./problem";
import { MANAGE_ROUTES } from "./routes";
import type { Route } from "./routes/define";
import {
  apiKeyResource,
  auditEventResource,
  budgetResource,
  createdApiKeyResource,
  createdInvitationResource,
  createdWebhookEndpointResource,
  fleetResource,
  incidentResource,
  invitationResource,
  memberResource,
  overrideResource,
  planResource,
  planVersionResource,
  priceCardResource,
  problemSchema,
  projectResource,
  subscriptionResource,
  tagRuleResource,
  usageResource,
  webhookEndpointResource,
  webhookEndpointSummaryResource,
  webhookMessageResource,
  webhookTestResource,
} from "./schemas";

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), for a request (`input`) or an answer (`output`). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const out = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as Json;
  delete out.$schema;
  return out;
}

/** Answer shapes named once under components.schemas and referenced by every operation. */
const NAMED: [string, z.ZodType][] = [
  ["Project", projectResource],
  ["Budget", budgetResource],
  ["TagRule", tagRuleResource],
  ["ApiKey", apiKeyResource],
  ["CreatedApiKey", createdApiKeyResource],
  ["WebhookEndpoint", webhookEndpointResource],
  ["WebhookEndpointSummary", webhookEndpointSummaryResource],
  ["CreatedWebhookEndpoint", createdWebhookEndpointResource],
  ["WebhookTestAttempt", webhookTestResource],
  ["WebhookMessage", webhookMessageResource],
  ["Fleet", fleetResource],
  ["Incident", incidentResource],
  ["Usage", usageResource],
  ["Member", memberResource],
  ["Invitation", invitationResource],
  ["CreatedInvitation", createdInvitationResource],
  ["AuditEvent", auditEventResource],
  ["Plan", planResource],
  ["PlanVersion", planVersionResource],
  ["Subscription", subscriptionResource],
  ["EntitlementOverride", overrideResource],
  ["PriceCard", priceCardResource],
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function responseSchema(schema: z.ZodType): Json {
  const named = NAMED.find(([, s]) => s === schema);
  return named ? ref(named[0]) : jsonSchemaOf(schema, "output");
}

const problem = (description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/problem+json": { schema: ref("Problem") } },
});

const RATE_HEADERS = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimit-Reset" },
};

/** Path and query parameters of a route, from its template and its query schema. */
function parametersOf(route: Route): Json[] {
  const params: Json[] = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (route.query) {
    const q = jsonSchemaOf(route.query, "input") as {
      properties?: Record<string, Json>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      params.push({ name, in: "query", required: q.required?.includes(name) ?? false, schema });
    }
  }
  if (route.method === "POST") params.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (route.etag && route.method === "PUT") params.push({ $ref: "#/components/parameters/IfMatch" });
  return params;
}

function operationOf(route: Route): Json {
  const status = String(route.status ?? 200);
  const okHeaders: Json = { ...RATE_HEADERS };
  if (route.etag) okHeaders.ETag = { description: "Entity tag of the resource", schema: { type: "string" } };
  const ok: Json =
    status === "204"
      ? { description: "Done", headers: okHeaders }
      : {
          description: "OK",
          headers: okHeaders,
          content: {
            "application/json": {
              schema: route.list
                ? {
                    type: "object",
                    properties: {
                      data: { type: "array", items: responseSchema(route.response!) },
                      has_more: { type: "boolean" },
                    },
                    required: ["data", "has_more"],
                    additionalProperties: false,
                  }
                : responseSchema(route.response!),
            },
          },
        };
  const responses: Json = {
    [status]: ok,
    "401": problem("No key, or not a live management key (SDK keys are refused)"),
    "403": problem("The key's scope does not allow this"),
    "404": problem("No such resource in the key's organization"),
    "422": problem("Invalid body or query (field errors in `errors`)"),
    "429": problem("Over the key's rate limit", { "Retry-After": { schema: { type: "integer" } } }),
  };
  if (route.method === "POST") {
    responses["409"] = problem(
      "A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it",
    );
  }
  if (route.etag && route.method === "PUT")
    responses["412"] = problem("If-Match no longer matches: read again");
  const op: Json = {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    security: [{ managementKey: [] }],
    parameters: parametersOf(route),
    responses,
  };
  if (route.description) op.description = route.description;
  if (route.body) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: jsonSchemaOf(route.body, "input") } },
    };
  }
  return op;
}

/**
 * The OpenAPI 3.1 document of the management API, generated from the route table and the same zod
 * schemas the handlers validate with: nothing in it is written by hand but prose.
 */
export function openApiDocument(routes: readonly Route[] = MANAGE_ROUTES): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const p = `${MANAGE_BASE}${route.path}`;
    paths[p] ??= {};
    paths[p][route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Breakwater management API",
      version: "1",
      description:
        "Configure Breakwater from code: projects, budgets, SDK keys, webhooks, members and fleet health, and (operator keys) plans, organizations' subscriptions and overrides and the price catalogue, with management keys (sk_mgmt_…). Errors are RFC 9457 problem details; see docs/management-api.md.",
    },
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        managementKey: {
          type: "http",
          scheme: "bearer",
          description:
            "A management key: sk_mgmt_ + 64 lowercase hex (Settings → API access, or bw mgmt-key create)",
        },
      },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422).",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
        IfMatch: {
          name: "If-Match",
          in: "header",
          required: false,
          description: "The ETag last read; a resource changed since is not overwritten (412).",
          schema: { type: "string" },
        },
      },
      headers: {
        "RateLimit-Limit": { description: "Requests allowed per window", schema: { type: "integer" } },
        "RateLimit-Remaining": { description: "Requests left in this window", schema: { type: "integer" } },
        "RateLimit-Reset": { description: "Seconds until the window resets", schema: { type: "integer" } },
      },
      schemas: {
        ...Object.fromEntries(NAMED.map(([name, s]) => [name, jsonSchemaOf(s, "output")])),
        Problem: {
          ...jsonSchemaOf(problemSchema, "output"),
          "x-problem-types": Object.fromEntries(
            Object.entries(PROBLEM_TYPES).map(([k, v]) => [
              problemTypeUri(k as keyof typeof PROBLEM_TYPES),
              v,
            ]),
          ),
        },
      },
    },
  };
}
