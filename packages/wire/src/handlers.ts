import type { AuthenticatedKey, IngestEvent, IngestResult } from "@breakwater/core";
import { isDomainError } from "@breakwater/core";
import type { Logger } from "pino";
import { z } from "zod";
import {
  bodyMissing,
  budgetUnavailable,
  detail,
  internalError,
  json,
  jsonInvalid,
  methodNotAllowed,
  noContent,
  notFound,
  payloadTooLarge,
  rateLimited,
  rawJson,
  readOnlyKey,
  serviceUnavailable,
  toResponse,
  unauthorized,
  validationFailed,
  type WireResult,
  zodIssuesToItems,
} from "./errors";
import {
  BodyTooLarge,
  findBadText,
  mayContainBadText,
  parseJsonBody,
  pathOf,
  readBody,
  type WireRequest,
} from "./http";
import { leaseUnavailable } from "./lease-errors";
import { createLeaseHandlers, type LeaseServices } from "./lease-handlers";
import { openApiDocument } from "./openapi";
import { fastCheckRequest } from "./schemas/fast-check-request";
import { fastMetadataEvent } from "./schemas/fast-metadata-event";
import {
  type BreakerReportInput,
  breakerReport,
  type CheckRequest,
  type ConfirmRequest,
  checkRequest,
  confirmRequest,
  INGEST_MAX_EVENTS,
  metadataEvent,
  UNTRACKED_MAX_REPORTS,
  type UntrackedSurfaceReportInput,
  untrackedSurfaceReport,
} from "./schemas/requests";
import { type CheckVerdict, serializeCheckResponse } from "./serialize-check";

/** Budget check input for the budgets core (see packages/core/src/budgets). */
export interface WireCheckBudgetInput {
  projectId: string;
  provider: string;
  model: string;
  estimatedInputTokens: number;
  fallbackProviders: string[];
  fallbackModels: string[];
  modality: string;
  agentRunId?: string;
  tags?: Record<string, string>;
  uncountedCalls: number;
  uncountedTokens: number;
}

/** Confirm input for the budgets core. */
export interface WireConfirmSpendInput {
  projectId: string;
  reservationId?: string;
  leaseId?: string;
  callId?: string;
  provider: string;
  model: string;
  modality: string;
  tokenDetails: Record<string, number | boolean>;
  mediaUsage?: Record<string, unknown> | null;
  serviceTier?: string | null;
  providerRegion?: string | null;
  isProviderFallback?: boolean;
}

/** Breaker report input for the fleet core (record-breaker-report). */
export interface WireBreakerReportInput {
  projectId: string;
  provider: string;
  state: "closed" | "open" | "half_open";
  failureCount: number;
  successCount: number;
  reportedAt: Date;
  sdkInstanceId: string;
}

/** One untracked-surface report for the surfaces core. */
export interface WireUntrackedItem {
  provider: string;
  clientShape: string;
  mode: string;
  surface: string;
  ruleKind: string;
  capabilityScope: string | null;
  posture: string;
  occurrences: number;
  firstSeenAt: string;
  lastSeenAt: string;
  sdkInstanceId: string;
  reportId: string;
}

/** What the handlers need of a project's entitlements. */
export interface ProjectPolicy {
  /** Requests per second (null = unlimited). */
  admissionRate: number | null;
  failoverTuningAllowed: boolean;
}

/** Everything the SDK handlers call; built once per process by createWireRuntime. */
export interface WireServices extends LeaseServices {
  log: Logger;
  /** The caller of a bearer header (null = 401); synchronous when the key cache is warm. */
  authenticate(authorization: string | null): AuthenticatedKey | null | Promise<AuthenticatedKey | null>;
  touchKey?(keyId: string): void;
  /** The project's effective admission rate and failover tuning; synchronous when cached. */
  policy(projectId: string): ProjectPolicy | Promise<ProjectPolicy>;
  admit(
    projectId: string,
    ratePerSecond: number | null,
  ): { ok: true } | { ok: false; retryAfterSeconds: number };
  quota?(
    projectId: string,
    ratePerSecond: number | null,
  ): { limitMinute: number; remainingMinute: number; limitHour: number; remainingHour: number } | null;
  checkBudget(input: WireCheckBudgetInput): Promise<CheckVerdict>;
  confirmSpend(input: WireConfirmSpendInput): Promise<unknown>;
  /** Price hints of spec §1 for the declared chain (`{}` = nothing priceable). */
  priceHints(input: {
    provider: string;
    model: string;
    fallbackProviders: string[];
    fallbackModels: string[];
    estimatedInputTokens: number;
  }): Record<string, number>;
  ingest(input: { projectId: string; organizationId: string; events: IngestEvent[] }): Promise<IngestResult>;
  recordBreakerReport(input: WireBreakerReportInput): Promise<unknown>;
  recordUntrackedSurfaces(projectId: string, items: WireUntrackedItem[]): Promise<unknown>;
  readiness(): Promise<{ postgres: boolean; redis: boolean }>;
}

/** Body limits per endpoint (bytes). Ingest allows 1000 events with long Bedrock ARNs. */
export const BODY_LIMITS = {
  check: 64 * 1024,
  confirm: 64 * 1024,
  ingest: 10 * 1024 * 1024,
  breaker: 16 * 1024,
  untracked: 256 * 1024,
} as const;

type Handler = (req: WireRequest) => Promise<WireResult>;

const PER_EVENT = new Set(["tags", "model", "modality", "service_tier"]);

interface Authed {
  key: AuthenticatedKey;
  body: unknown;
  policy: ProjectPolicy;
}

class Early {
  constructor(readonly result: WireResult) {}
}

/**
 * The SDK wire API (spec §0–4, 6, 7) as transport-neutral handlers. Order of the gates mirrors
 * the reference FastAPI server: body size (413) and JSON syntax (422) while reading the request,
 * then the key (401), read-only (403), the project's admission limit (429), then the schema (422).
 */
export function createWireHandlers(s: WireServices) {
  /** Reads, parses and authenticates one write request; throws Early with the refusal. */
  async function gate(
    req: WireRequest,
    limit: number,
    textExempt?: (path: (string | number)[]) => boolean,
  ): Promise<Authed> {
    if (req.method !== "POST") throw new Early(methodNotAllowed());
    let bytes: Uint8Array;
    try {
      bytes = await readBody(req, limit);
    } catch (err) {
      if (err instanceof BodyTooLarge) throw new Early(payloadTooLarge());
      throw err;
    }
    let body: unknown;
    try {
      body = parseJsonBody(bytes);
    } catch {
      throw new Early(jsonInvalid());
    }
    // Warm caches answer synchronously: no promise, no microtask on the hot path.
    const authed = s.authenticate(req.headers.get("authorization"));
    const key = authed instanceof Promise ? await authed : authed;
    if (!key) throw new Early(unauthorized());
    if (key.readOnly) throw new Early(readOnlyKey());
    s.touchKey?.(key.keyId);
    const looked = s.policy(key.projectId);
    const policy = looked instanceof Promise ? await looked : looked;
    const admission = s.admit(key.projectId, policy.admissionRate);
    if (!admission.ok) throw new Early(rateLimited(admission.retryAfterSeconds));
    if (body === undefined) throw new Early(bodyMissing());
    if (mayContainBadText(bytes)) {
      const at = findBadText(body, textExempt);
      if (at) {
        throw new Early(
          validationFailed([
            {
              loc: ["body", ...at],
              msg: "Value error, text must not contain NUL or unpaired surrogates",
              type: "value_error",
            },
          ]),
        );
      }
    }
    return { key, body, policy };
  }

  function validate<S extends z.ZodType>(schema: S, body: unknown, prefix: (string | number)[] = []) {
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new Early(validationFailed(zodIssuesToItems(parsed.error.issues, body, prefix)));
    return parsed.data as z.output<S>;
  }

  /** Maps what escaped a handler to an envelope; only true infrastructure faults are 5xx. */
  function guard(name: string, fn: Handler, unavailable: () => WireResult): Handler {
    // One rejection handler per endpoint, chained onto each request's promise: no async frame
    // per request (the handlers are async functions, so they never throw synchronously).
    const recover = (err: unknown): WireResult => {
      if (err instanceof Early) return err.result;
      // A core use case refusing its input is still bad input, never a 500.
      if (err instanceof z.core.$ZodError) return validationFailed(zodIssuesToItems(err.issues, undefined));
      if (isDomainError(err)) {
        switch (err.code) {
          case "BUDGET_UNAVAILABLE":
            return budgetUnavailable();
          case "NOT_FOUND":
            return notFound(err.message);
          case "UNAUTHORIZED":
            return unauthorized();
          case "FORBIDDEN":
            return readOnlyKey();
          case "RATE_LIMITED":
            return rateLimited(Number(err.details?.retryAfterSeconds ?? 1));
          case "INVALID":
            return validationFailed([
              { loc: ["body"], msg: `Value error, ${err.message}`, type: "value_error" },
            ]);
          default:
            break;
        }
      }
      if (isInfrastructureFault(err)) {
        s.log.warn({ err, handler: name }, "SDK request failed on an unavailable backend");
        return unavailable();
      }
      s.log.error({ err, handler: name }, "SDK request failed");
      return internalError();
    };
    return (req) => fn(req).then(undefined, recover);
  }

  const check: Handler = async (req) => {
    const { key, body, policy } = await gate(req, BODY_LIMITS.check);
    const input: CheckRequest = fastCheckRequest(body) ?? validate(checkRequest, body);
    const opt = {
      failoverDirectiveVersion: input.failover_directive_version === "1",
      runDirectiveVersion: input.run_directive_version === "1",
      priceHintsVersion: input.price_hints_version === "1",
      agentRunId: input.agent_run_id || null,
    };
    const verdict = await s.checkBudget({
      projectId: key.projectId,
      provider: input.provider,
      model: input.model,
      estimatedInputTokens: input.estimated_input_tokens,
      fallbackProviders: input.fallback_providers,
      fallbackModels: input.fallback_models,
      modality: input.modality,
      // An empty run id names no run (the SDK's schema allows "", the engine does not).
      agentRunId: input.agent_run_id || undefined,
      tags: input.tags ?? undefined,
      uncountedCalls: input.uncounted_calls ?? 0,
      uncountedTokens: input.uncounted_tokens ?? 0,
    });
    const priceHints = opt.priceHintsVersion
      ? s.priceHints({
          provider: input.provider,
          model: input.model,
          fallbackProviders: input.fallback_providers,
          fallbackModels: input.fallback_models,
          estimatedInputTokens: input.estimated_input_tokens,
        })
      : null;
    return rawJson(
      200,
      serializeCheckResponse(verdict, key.projectId, opt, {
        priceHints,
        failoverTuningAllowed: policy.failoverTuningAllowed,
      }),
    );
  };

  const confirm: Handler = async (req) => {
    const { key, body } = await gate(req, BODY_LIMITS.confirm);
    const input: ConfirmRequest = validate(confirmRequest, body);
    await s.confirmSpend({
      projectId: key.projectId,
      reservationId: input.reservation_id ?? undefined,
      leaseId: input.lease_id ?? undefined,
      callId: input.call_id,
      provider: input.provider,
      model: input.model,
      modality: input.modality,
      tokenDetails: input.token_details,
      mediaUsage: input.media_usage ?? null,
      serviceTier: input.service_tier ?? null,
      providerRegion: input.provider_region ?? null,
      isProviderFallback: input.is_provider_fallback,
    });
    return noContent();
  };

  const ingest: Handler = async (req) => {
    // An event's tags, model, modality and service tier have per-event rejection codes of their own.
    const { key, body, policy } = await gate(
      req,
      BODY_LIMITS.ingest,
      (p) => p.length === 2 && PER_EVENT.has(p[1] as string),
    );
    if (!Array.isArray(body)) {
      return validationFailed([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
    }
    if (body.length > INGEST_MAX_EVENTS) {
      return detail(400, `A batch holds at most ${INGEST_MAX_EVENTS} events`);
    }
    const events: IngestEvent[] = [];
    const items = [];
    for (let i = 0; i < body.length; i++) {
      const fast = fastMetadataEvent(body[i]);
      if (fast) {
        events.push(fast as IngestEvent);
        continue;
      }
      const parsed = metadataEvent.safeParse(body[i]);
      if (parsed.success) events.push(parsed.data as IngestEvent);
      else if (items.length < 200) items.push(...zodIssuesToItems(parsed.error.issues, body[i], [i]));
      else break;
    }
    if (items.length > 0) return validationFailed(items.slice(0, 200));
    const result = await s.ingest({ projectId: key.projectId, organizationId: key.organizationId, events });
    const quota = s.quota?.(key.projectId, policy.admissionRate) ?? null;
    const headers = quota
      ? {
          "x-ratelimit-limit-minute": String(quota.limitMinute),
          "x-ratelimit-remaining-minute": String(quota.remainingMinute),
          "x-ratelimit-limit-hour": String(quota.limitHour),
          "x-ratelimit-remaining-hour": String(quota.remainingHour),
        }
      : undefined;
    return json(
      202,
      { ingested: result.ingested, rejected: result.rejected, duplicates: result.duplicates },
      headers,
    );
  };

  const breakerReports =
    (pathProjectId: string): Handler =>
    async (req) => {
      const { key, body } = await gate(req, BODY_LIMITS.breaker);
      // Another tenant's project (or any other id) is indistinguishable from a missing one.
      if (pathProjectId !== key.projectId) return notFound("Project not found");
      const input: BreakerReportInput = validate(breakerReport, body);
      await s.recordBreakerReport({
        projectId: key.projectId,
        provider: input.provider,
        state: input.state,
        failureCount: input.failure_count,
        successCount: input.success_count,
        reportedAt: input.reported_at.date,
        sdkInstanceId: input.sdk_instance_id,
      });
      return rawJson(202, '{"accepted":true}');
    };

  const untrackedSurfaces: Handler = async (req) => {
    const { key, body } = await gate(req, BODY_LIMITS.untracked);
    if (!Array.isArray(body)) {
      return validationFailed([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
    }
    if (body.length > UNTRACKED_MAX_REPORTS) {
      return detail(400, `untracked surface batches may contain at most ${UNTRACKED_MAX_REPORTS} reports`);
    }
    const reports: UntrackedSurfaceReportInput[] = [];
    const issues = [];
    for (let i = 0; i < body.length; i++) {
      const parsed = untrackedSurfaceReport.safeParse(body[i]);
      if (parsed.success) reports.push(parsed.data);
      else issues.push(...zodIssuesToItems(parsed.error.issues, body[i], [i]));
    }
    if (issues.length > 0) return validationFailed(issues.slice(0, 200));
    const seen = new Set<string>();
    for (const r of reports) {
      const k = `${r.provider}\u0000${r.client_shape}\u0000${r.mode}\u0000${r.surface}`;
      if (seen.has(k)) return detail(400, "Batch repeats an observation key");
      seen.add(k);
    }
    await s.recordUntrackedSurfaces(
      key.projectId,
      reports.map((r) => ({
        provider: r.provider,
        clientShape: r.client_shape,
        mode: r.mode,
        surface: r.surface,
        ruleKind: r.rule_kind,
        capabilityScope: r.capability_scope ?? null,
        posture: r.posture,
        occurrences: r.occurrences,
        firstSeenAt: r.first_seen_at.iso,
        lastSeenAt: r.last_seen_at.iso,
        sdkInstanceId: r.sdk_instance_id,
        reportId: r.report_id,
      })),
    );
    return json(202, { accepted: reports.length });
  };

  const health: Handler = async (req) =>
    req.method === "GET" || req.method === "HEAD" ? rawJson(200, '{"status":"ok"}') : methodNotAllowed();

  const ready: Handler = async (req) => {
    if (req.method !== "GET" && req.method !== "HEAD") return methodNotAllowed();
    const r = await s.readiness();
    const ok = r.postgres && r.redis;
    return json(ok ? 200 : 503, {
      status: ok ? "ok" : "unavailable",
      postgres: r.postgres ? "ok" : "unavailable",
      redis: r.redis ? "ok" : "unavailable",
    });
  };

  let openapiText: string | null = null;
  const openapi: Handler = async (req) => {
    if (req.method !== "GET" && req.method !== "HEAD") return methodNotAllowed();
    openapiText ??= JSON.stringify(openApiDocument());
    return rawJson(200, openapiText);
  };

  const leases = createLeaseHandlers({ gate, validate }, s);

  const handlers = {
    check: guard("check", check, budgetUnavailable),
    leaseGrant: guard("lease-grant", leases.grant, leaseUnavailable),
    leaseRenew: guard("lease-renew", leases.renew, leaseUnavailable),
    leaseSurrender: guard("lease-surrender", leases.surrender, leaseUnavailable),
    confirm: guard("confirm", confirm, budgetUnavailable),
    ingest: guard("ingest", ingest, serviceUnavailable),
    untrackedSurfaces: guard("untracked-surfaces", untrackedSurfaces, serviceUnavailable),
    breakerReports: (projectId: string) =>
      guard("breaker-reports", breakerReports(projectId), serviceUnavailable),
    health,
    ready: guard("ready", ready, serviceUnavailable),
    openapi,
  };

  const BREAKER_RE = /^\/api\/v1\/projects\/([^/]+)\/providers\/breaker-reports\/?$/;

  /** Routes one request to its handler by path; unknown paths are 404. */
  function dispatch(req: WireRequest): Promise<WireResult> {
    try {
      return route(req);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function route(req: WireRequest): Promise<WireResult> {
    const path = pathOf(req.url);
    switch (path) {
      case "/api/v1/budgets/check":
        return handlers.check(req);
      case "/api/v1/budgets/confirm":
        return handlers.confirm(req);
      case "/api/v1/budgets/lease":
        return handlers.leaseGrant(req);
      case "/api/v1/budgets/lease/renew":
        return handlers.leaseRenew(req);
      case "/api/v1/budgets/lease/surrender":
        return handlers.leaseSurrender(req);
      case "/api/v1/metadata/ingest":
        return handlers.ingest(req);
      case "/api/v1/untracked-surfaces":
        return handlers.untrackedSurfaces(req);
      case "/health":
        return handlers.health(req);
      case "/health/ready":
        return handlers.ready(req);
      case "/api/v1/openapi.json":
        return handlers.openapi(req);
      default: {
        const m = BREAKER_RE.exec(path);
        if (m) {
          let projectId: string;
          try {
            projectId = decodeURIComponent(m[1]!);
          } catch {
            return Promise.resolve(notFound("Project not found"));
          }
          return handlers.breakerReports(projectId)(req);
        }
        return Promise.resolve(notFound());
      }
    }
  }

  /** Fetch-style mounts `(Request) => Promise<Response>` for Next.js route files. */
  const fetchHandlers = {
    check: (req: Request) => handlers.check(req).then(toResponse),
    confirm: (req: Request) => handlers.confirm(req).then(toResponse),
    leaseGrant: (req: Request) => handlers.leaseGrant(req).then(toResponse),
    leaseRenew: (req: Request) => handlers.leaseRenew(req).then(toResponse),
    leaseSurrender: (req: Request) => handlers.leaseSurrender(req).then(toResponse),
    ingest: (req: Request) => handlers.ingest(req).then(toResponse),
    untrackedSurfaces: (req: Request) => handlers.untrackedSurfaces(req).then(toResponse),
    breakerReports: (req: Request, projectId: string) =>
      handlers.breakerReports(projectId)(req).then(toResponse),
    health: (req: Request) => handlers.health(req).then(toResponse),
    ready: (req: Request) => handlers.ready(req).then(toResponse),
    openapi: (req: Request) => handlers.openapi(req).then(toResponse),
    dispatch: (req: Request) => dispatch(req).then(toResponse),
  };

  return { ...handlers, dispatch, fetch: fetchHandlers };
}

export type WireHandlers = ReturnType<typeof createWireHandlers>;

/** True for unreachable Postgres/Redis and transient conflicts: answer a retryable 503, not a 500. */
export function isInfrastructureFault(err: unknown, depth = 0): boolean {
  if (typeof err !== "object" || err === null || depth > 4) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (INFRA_CODES.has(code) || code.startsWith("08")) return true; // 08xxx: Postgres connection exceptions
  const name = typeof e.name === "string" ? e.name : "";
  if (name === "MaxRetriesPerRequestError" || name === "PrismaClientInitializationError") return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (INFRA_MESSAGE.test(message)) return true;
  return isInfrastructureFault(e.cause, depth + 1);
}

const INFRA_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin shutdown
  "57P03", // cannot connect now
  "53300", // too many connections
  "P1001", // Prisma: can't reach database server
  "P1002", // Prisma: database server timed out
  "P1008", // Prisma: operation timed out
  "P1017", // Prisma: server closed the connection
  "P2024", // Prisma: connection pool timeout
  // Transient conflicts: the request is sound and a retry (which the SDK does on 5xx) succeeds.
  "40P01", // deadlock detected
  "40001", // serialization failure
  "P2034", // Prisma: write conflict or deadlock
]);
const INFRA_MESSAGE =
  /Connection is closed|connect ECONNREFUSED|Connection terminated|timeout exceeded when trying to connect|Stream isn't writeable|Can't reach database server/i;
