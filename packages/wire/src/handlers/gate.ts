import {
  type AuthenticatedKey,
  type DomainError,
  type DomainErrorCode,
  isDomainError,
} from "@breakwater/core";
import { z } from "zod";
import {
  bodyMissing,
  budgetUnavailable,
  internalError,
  json,
  jsonInvalid,
  notFound,
  payloadTooLarge,
  rateLimited,
  readOnlyKey,
  unauthorized,
  validationFailed,
  type WireResult,
  zodIssuesToItems,
} from "../errors";
import { findBadText, mayContainBadText, parseJsonBody, readBody, type WireRequest } from "../http";
import type { Backend } from "../metrics";
import { type ProjectPolicy, projectPolicy, type WireContext } from "./context";

/** Body limits per endpoint (bytes). Ingest allows 1000 events with long Bedrock ARNs. */
export const BODY_LIMITS = {
  check: 64 * 1024,
  confirm: 64 * 1024,
  ingest: 10 * 1024 * 1024,
  breaker: 16 * 1024,
  untracked: 256 * 1024,
} as const;

/** A refusal thrown by the gate or a handler's validation; the route's `recover` (recoverer) answers with it. */
export class Early {
  constructor(readonly result: WireResult) {}
}

export interface Gated {
  key: AuthenticatedKey;
  body: unknown;
  policy: ProjectPolicy;
}

export interface GateOptions {
  /** Largest body accepted (413 beyond it). */
  limit: number;
  /** Subtrees the endpoint judges itself for NUL / lone surrogates (an event's tags have their own code). */
  textExempt?: (path: (string | number)[]) => boolean;
}

/**
 * The one gate in front of every write endpoint; throws Early with the refusal. The key is
 * judged from the header before a byte of the body is read, so a keyless or bad-key request costs
 * no body read and no JSON parse, whatever it declares (401, read-only 403, admission 429), then
 * the body: size (413), JSON syntax (422), text Postgres cannot store (422). The method is the
 * router's business (405).
 */
export async function gate(ctx: WireContext, req: WireRequest, opts: GateOptions): Promise<Gated> {
  // Warm caches answer synchronously: no promise, no microtask on the hot path.
  const authed = req.authed ?? ctx.auth.authenticate(req.headers.get("authorization"));
  const key = authed instanceof Promise ? await authed : authed;
  if (!key) throw new Early(unauthorized());
  if (key.readOnly) throw new Early(readOnlyKey());
  ctx.usage.touch(key.keyId);
  const looked = projectPolicy(ctx, key.projectId);
  const policy = looked instanceof Promise ? await looked : looked;
  const admission = ctx.admission.admit(key.projectId, policy.admissionRate);
  if (!admission.ok) throw new Early(rateLimited(admission.retryAfterSeconds));
  const bytes = await readBody(req, opts.limit);
  if (bytes === null) throw new Early(payloadTooLarge());
  let body: unknown;
  try {
    body = parseJsonBody(bytes);
  } catch {
    throw new Early(jsonInvalid());
  }
  if (body === undefined) throw new Early(bodyMissing());
  if (mayContainBadText(bytes)) {
    const at = findBadText(body, opts.textExempt);
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

/** `schema.parse(body)`, refusing with the FastAPI 422 envelope (`prefix` after "body" in each loc). */
export function validate<S extends z.ZodType>(schema: S, body: unknown, prefix: (string | number)[] = []) {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Early(validationFailed(zodIssuesToItems(parsed.error.issues, body, prefix)));
  return parsed.data as z.output<S>;
}

/** `{"detail": message}`, or `{"detail":{"code","message"}}` when the error names a wire code. */
function domainDetail(status: number, err: DomainError): WireResult {
  const code = err.details?.code;
  return json(status, { detail: typeof code === "string" ? { code, message: err.message } : err.message });
}

/**
 * Every domain error code's answer on the wire. A Record, not a switch with a default: a new code
 * in core fails this file's typecheck until it has an answer here.
 */
export const DOMAIN_ERRORS: Record<DomainErrorCode, (err: DomainError) => WireResult> = {
  BUDGET_UNAVAILABLE: () => budgetUnavailable(),
  NOT_FOUND: (err) => notFound(err.message),
  UNAUTHORIZED: () => unauthorized(),
  FORBIDDEN: () => readOnlyKey(),
  RATE_LIMITED: (err) => rateLimited(Number(err.details?.retryAfterSeconds ?? 1)),
  INVALID: (err) =>
    validationFailed([{ loc: ["body"], msg: `Value error, ${err.message}`, type: "value_error" }]),
  CONFLICT: (err) => domainDetail(409, err),
  // The request is well formed; a plan or cap stands in the way (a clear message says so).
  LIMIT_EXCEEDED: (err) => domainDetail(409, err),
  // No SDK endpoint makes conditional writes; a 409 if one ever did.
  PRECONDITION_FAILED: (err) => domainDetail(409, err),
};

export type Handler = (ctx: WireContext, req: WireRequest, params: readonly string[]) => Promise<WireResult>;

/** What a handler's failure answers: the envelope of a refusal, a 503 for an unavailable backend, else a logged 500. */
export type Recover = (ctx: WireContext, err: unknown) => WireResult;

/**
 * The answer to whatever escapes a handler: only true infrastructure faults are 5xx
 * (`unavailable`, retryable), anything else unexpected a logged 500.
 */
export function recoverer(name: string, unavailable: () => WireResult): Recover {
  return (ctx, err) => {
    if (err instanceof Early) return err.result;
    // A core use case refusing its input is still bad input, never a 500.
    if (err instanceof z.core.$ZodError) return validationFailed(zodIssuesToItems(err.issues, undefined));
    if (isDomainError(err)) {
      // The budget store (Redis) missed the check's deadline or refused: the 503 SDKs fail open on.
      if (err.code === "BUDGET_UNAVAILABLE") ctx.metrics?.backendError("redis");
      return DOMAIN_ERRORS[err.code](err);
    }
    if (isInfrastructureFault(err)) {
      ctx.metrics?.backendError(faultBackend(err));
      ctx.log.warn({ err, handler: name }, "SDK request failed on an unavailable backend");
      return unavailable();
    }
    ctx.log.error({ err, handler: name }, "SDK request failed");
    return internalError();
  };
}

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

const POSTGRES_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Can't reach database server/i;
const REDIS_MESSAGE = /Connection is closed|Stream isn't writeable/i;

/**
 * Which store an infrastructure fault came from, for the backend error counter: Postgres by its
 * SQLSTATE classes and Prisma codes, Redis by ioredis's errors; a bare socket error that names
 * neither (ECONNREFUSED from either driver) is `unknown`.
 */
export function faultBackend(err: unknown, depth = 0): Backend {
  if (typeof err !== "object" || err === null || depth > 4) return "unknown";
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (/^(08|57P|53|40)/.test(code) || /^P[12]\d{3}$/.test(code)) return "postgres";
  const name = typeof e.name === "string" ? e.name : "";
  if (name === "PrismaClientInitializationError") return "postgres";
  if (name === "MaxRetriesPerRequestError") return "redis";
  const message = typeof e.message === "string" ? e.message : "";
  if (POSTGRES_MESSAGE.test(message)) return "postgres";
  if (REDIS_MESSAGE.test(message)) return "redis";
  return faultBackend(e.cause, depth + 1);
}
