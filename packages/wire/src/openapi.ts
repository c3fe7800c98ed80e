import { z } from "zod";
import {
  leaseError,
  leaseGrantRequest,
  leaseGrantResponse,
  leaseRenewRequest,
  leaseSurrenderRequest,
  leaseSurrenderResponse,
} from "./schemas/leases";
import {
  breakerReport,
  checkRequest,
  confirmRequest,
  INGEST_MAX_EVENTS,
  metadataEvent,
  UNTRACKED_MAX_REPORTS,
  untrackedSurfaceReport,
} from "./schemas/requests";
import {
  breakerAccepted,
  checkResponse,
  detailError,
  healthResponse,
  ingestResponse,
  rateLimitError,
  readinessResponse,
  readOnlyError,
  untrackedAccepted,
  validationError,
} from "./schemas/responses";

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: "input" | "output"): Json {
  const out = z.toJSONSchema(s, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete out.$schema;
  return out;
}

const content = (ref: string) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${ref}` } },
});

const errorResponses = (extra: Record<string, Json> = {}) => ({
  "401": { description: "Unknown, revoked, expired or malformed key", content: content("Detail") },
  "403": { description: "Read-only project key", content: content("ReadOnlyKey") },
  "413": { description: "Body over the endpoint's byte limit", content: content("Detail") },
  "422": { description: "Validation error (FastAPI envelope)", content: content("ValidationError") },
  "429": {
    description: "Per-project admission limit",
    headers: { "Retry-After": { schema: { type: "integer" } } },
    content: content("RateLimit"),
  },
  "503": { description: "Backend temporarily unavailable", content: content("Detail") },
  ...extra,
});

const post = (summary: string, body: string, ok: Json, extra: Record<string, Json> = {}) => ({
  post: {
    summary,
    security: [{ bearer: [] }],
    requestBody: { required: true, content: content(body) },
    responses: { ...ok, ...errorResponses(extra) },
  },
});

/** The OpenAPI 3.1 document of the SDK wire API, generated from the same zod schemas that validate it. */
export function openApiDocument(): Json {
  return {
    openapi: "3.1.0",
    info: {
      title: "Breakwater SDK API",
      version: "1",
      description:
        "Server side of the Solwyn SDK wire protocol (budget check, confirm, run leases, ingest, fleet health).",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "sk_proj_ + 64 lowercase hex" },
      },
      schemas: {
        BudgetCheckRequest: schemaOf(checkRequest, "input"),
        BudgetCheckResponse: schemaOf(checkResponse, "output"),
        BudgetConfirmRequest: schemaOf(confirmRequest, "input"),
        LeaseGrantRequest: schemaOf(leaseGrantRequest, "input"),
        LeaseRenewRequest: schemaOf(leaseRenewRequest, "input"),
        LeaseGrantResponse: schemaOf(leaseGrantResponse, "output"),
        LeaseSurrenderRequest: schemaOf(leaseSurrenderRequest, "input"),
        LeaseSurrenderResponse: schemaOf(leaseSurrenderResponse, "output"),
        LeaseError: schemaOf(leaseError, "output"),
        IngestRequest: {
          type: "array",
          maxItems: INGEST_MAX_EVENTS,
          items: schemaOf(metadataEvent, "input"),
        },
        IngestResponse: schemaOf(ingestResponse, "output"),
        BreakerStateReport: schemaOf(breakerReport, "input"),
        BreakerReportAccepted: schemaOf(breakerAccepted, "output"),
        UntrackedSurfaceReports: {
          type: "array",
          maxItems: UNTRACKED_MAX_REPORTS,
          items: schemaOf(untrackedSurfaceReport, "input"),
        },
        UntrackedSurfaceAccepted: schemaOf(untrackedAccepted, "output"),
        Health: schemaOf(healthResponse, "output"),
        Readiness: schemaOf(readinessResponse, "output"),
        Detail: schemaOf(detailError, "output"),
        ReadOnlyKey: schemaOf(readOnlyError, "output"),
        ValidationError: schemaOf(validationError, "output"),
        RateLimit: schemaOf(rateLimitError, "output"),
      },
    },
    paths: {
      "/api/v1/budgets/check": post("Pre-flight budget check", "BudgetCheckRequest", {
        "200": { description: "Verdict", content: content("BudgetCheckResponse") },
      }),
      "/api/v1/budgets/confirm": post(
        "Settle a reservation with the actual usage",
        "BudgetConfirmRequest",
        { "204": { description: "Settled (or already settled)" } },
        { "404": { description: "Reservation not found or expired", content: content("Detail") } },
      ),
      "/api/v1/budgets/lease": post(
        "Grant a run lease of budget tokens",
        "LeaseGrantRequest",
        { "200": { description: "Grant, ineligible or deny", content: content("LeaseGrantResponse") } },
        {
          "409": { description: "lease_holder_cap_exceeded", content: content("LeaseError") },
          "503": { description: "lease_unavailable", content: content("LeaseError") },
        },
      ),
      "/api/v1/budgets/lease/renew": post(
        "Renew a lease (generation-fenced; a repeated renewal gets the stored answer)",
        "LeaseRenewRequest",
        { "200": { description: "The successor's answer", content: content("LeaseGrantResponse") } },
        {
          "404": {
            description: "lease_not_found (unknown, expired or another project's)",
            content: content("LeaseError"),
          },
          "409": { description: "lease_generation_conflict", content: content("LeaseError") },
          "503": { description: "lease_unavailable", content: content("LeaseError") },
        },
      ),
      "/api/v1/budgets/lease/surrender": post(
        "Surrender a lease; its outstanding claim returns (idempotent)",
        "LeaseSurrenderRequest",
        {
          "200": {
            description: "Released tokens (0 on a repeat)",
            content: content("LeaseSurrenderResponse"),
          },
        },
        {
          "404": { description: "lease_not_found", content: content("LeaseError") },
          "409": { description: "lease_generation_conflict", content: content("LeaseError") },
          "503": { description: "lease_unavailable", content: content("LeaseError") },
        },
      ),
      "/api/v1/metadata/ingest": post(
        "Ingest a batch of metadata events",
        "IngestRequest",
        { "202": { description: "Durable; per-event dispositions", content: content("IngestResponse") } },
        { "400": { description: "More than 1000 events", content: content("Detail") } },
      ),
      "/api/v1/projects/{project_id}/providers/breaker-reports": {
        ...post(
          "Report one provider circuit-breaker snapshot",
          "BreakerStateReport",
          { "202": { description: "Accepted", content: content("BreakerReportAccepted") } },
          {
            "404": {
              description: "Project not found (or not the key's project)",
              content: content("Detail"),
            },
            "422": {
              description:
                "Validation error (FastAPI envelope), including reported_at more than 5 minutes ahead of the server's clock",
              content: content("ValidationError"),
            },
          },
        ),
        parameters: [{ name: "project_id", in: "path", required: true, schema: { type: "string" } }],
      },
      "/api/v1/untracked-surfaces": post(
        "Report SDK surfaces whose spend could not be metered",
        "UntrackedSurfaceReports",
        { "202": { description: "Accepted", content: content("UntrackedSurfaceAccepted") } },
        {
          "400": { description: "Batch over 100 or a repeated observation key", content: content("Detail") },
        },
      ),
      "/health": {
        get: { summary: "Liveness", responses: { "200": { description: "OK", content: content("Health") } } },
      },
      "/health/ready": {
        get: {
          summary: "Readiness (Postgres and Redis reachable)",
          responses: {
            "200": { description: "Ready", content: content("Readiness") },
            "503": { description: "A backend is unreachable", content: content("Readiness") },
          },
        },
      },
    },
  };
}
