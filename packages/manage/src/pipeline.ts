import { createHash } from "node:crypto";
import {
  authenticateManagementKey,
  claimIdempotentRequest,
  completeIdempotentRequest,
  type Deps,
  type DomainError,
  type DomainErrorCode,
  type FixedWindowLimiter,
  isDomainError,
  isStorableText,
  type KeyUsageTracker,
  type ManagementCaller,
  managementCtx,
  type RateLimitRule,
  releaseIdempotentRequest,
} from "@breakwater/core";
import { ZodError, type z } from "zod";
import {
  internalProblem,
  JSON_TYPE,
  json,
  type ManageRequest,
  type ManageResponse,
  problemResponse,
  splitTarget,
} from "./http";
import { type FieldError, ProblemError, type ProblemType, pointerOf } from "./problem";
import type { Route } from "./routes/define";

/** Where the management API lives on the dashboard's port. */
export const MANAGE_BASE = "/api/manage/v1";
/** The largest body a request may send. */
export const MANAGE_BODY_LIMIT = 64 * 1024;

/** Whether a request target is the management API's. */
export function isManagePath(url: string): boolean {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  return path === MANAGE_BASE || path.startsWith(`${MANAGE_BASE}/`);
}

export interface PipelineDeps {
  deps: Deps;
  routes: readonly Route[];
  limiter: FixedWindowLimiter;
  /** Requests per key per window. */
  rateLimit: RateLimitRule;
  usage: KeyUsageTracker;
  /** Public endpoints answered without a key (the OpenAPI document). */
  open?: Record<string, () => ManageResponse>;
}

interface Matched {
  route: Route;
  params: Record<string, string>;
}

/** A path template compiled once: `/projects/{projectId}` → a regex and its parameter names. */
function compile(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]{1,200})";
  });
  return { re: new RegExp(`^${source}$`), names };
}

const DOMAIN_PROBLEMS: Record<DomainErrorCode, ProblemType> = {
  NOT_FOUND: "not-found",
  FORBIDDEN: "forbidden",
  UNAUTHORIZED: "unauthorized",
  CONFLICT: "conflict",
  INVALID: "validation-failed",
  LIMIT_EXCEEDED: "plan-limit",
  BUDGET_UNAVAILABLE: "unavailable",
  RATE_LIMITED: "rate-limited",
  PRECONDITION_FAILED: "precondition-failed",
};

/** A zod failure's field errors (body fields by pointer, query parameters by name). */
function zodFieldErrors(err: ZodError, where: "body" | "query"): FieldError[] {
  return err.issues.map((issue) =>
    where === "query"
      ? { parameter: String(issue.path[0] ?? ""), detail: issue.message }
      : { pointer: pointerOf(issue.path), detail: issue.message },
  );
}

/** A domain error as a problem: INVALID carries its per-field messages (dotted paths) as pointers. */
function domainProblem(err: DomainError, query = false): ProblemError {
  const type = DOMAIN_PROBLEMS[err.code];
  if (err.code === "INVALID") {
    const fe = err.details?.fieldErrors as Record<string, string> | undefined;
    const errors: FieldError[] = fe
      ? Object.entries(fe).map(([path, detail]) =>
          query
            ? { parameter: path.split(".")[0] ?? path, detail }
            : { pointer: path === "_" ? "" : pointerOf(path.split(".")), detail },
        )
      : [];
    return new ProblemError(type, err.message, { errors });
  }
  if (err.code === "RATE_LIMITED") {
    const after = Number(err.details?.retryAfterSeconds ?? 1);
    return new ProblemError(type, err.message, { headers: { "retry-after": String(after) } });
  }
  return new ProblemError(type, err.message);
}

/** The first string in `value` Postgres cannot store (NUL, a lone surrogate), as a pointer; else null. */
function badTextAt(value: unknown, path: (string | number)[] = []): string | null {
  if (typeof value === "string") return isStorableText(value) ? null : pointerOf(path);
  if (typeof value !== "object" || value === null) return null;
  for (const [k, v] of Object.entries(value)) {
    if (!isStorableText(k)) return pointerOf([...path, k]);
    const hit = badTextAt(v, [...path, Array.isArray(value) ? Number(k) : k]);
    if (hit !== null) return hit;
  }
  return null;
}

const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * The management API's request pipeline: authenticate the key, count it against its rate limit,
 * match the route, check the key's scope, honour Idempotency-Key (POST) and If-Match (PUT), read
 * and validate the body and query with the route's schemas, call the handler, and turn every
 * failure into problem+json — a 500 only for what nothing expected, logged, with no message.
 */
export function createPipeline(p: PipelineDeps): (req: ManageRequest) => Promise<ManageResponse> {
  const compiled = p.routes.map((route) => ({ route, ...compile(`${MANAGE_BASE}${route.path}`) }));
  const match = (method: string, path: string): Matched | "method" | null => {
    let pathMatched = false;
    for (const c of compiled) {
      const m = c.re.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (c.route.method !== method) continue;
      const params: Record<string, string> = {};
      try {
        c.names.forEach((n, i) => {
          params[n] = decodeURIComponent(m[i + 1]!);
        });
      } catch {
        return null; // malformed percent-encoding names nothing
      }
      return { route: c.route, params };
    }
    return pathMatched ? "method" : null;
  };

  return async (req) => {
    const { path, query } = splitTarget(req.url);
    const rateHeaders: Record<string, string> = {};
    let current: Route | undefined;
    const fail = (err: unknown): ManageResponse => {
      if (err instanceof ProblemError) {
        return problemResponse(err.toProblem(path), { ...rateHeaders, ...err.extra.headers });
      }
      if (isDomainError(err)) return fail(domainProblem(err, current !== undefined && !current.body));
      if (err instanceof ZodError) {
        // Core re-validates what a route passed on: on a route without a body, those are query parameters.
        const where = current && !current.body ? "query" : "body";
        return fail(new ProblemError("validation-failed", undefined, { errors: zodFieldErrors(err, where) }));
      }
      p.deps.log.error({ err, path, method: req.method }, "management API request failed");
      return problemResponse(internalProblem(path), rateHeaders);
    };

    try {
      const open = req.method === "GET" ? p.open?.[path] : undefined;
      if (open) return open();

      const caller = await authenticateManagementKey(p.deps, req.headers.get("authorization"));
      if (!caller) {
        throw new ProblemError(
          "unauthorized",
          "Send Authorization: Bearer sk_mgmt_… with a live management key",
          {
            headers: { "www-authenticate": 'Bearer realm="breakwater-management"' },
          },
        );
      }
      p.usage.touch(caller.keyId);

      const decision = await p.limiter.consume(caller.keyId, p.rateLimit);
      rateHeaders["ratelimit-limit"] = String(p.rateLimit.max);
      rateHeaders["ratelimit-remaining"] = String(Math.max(0, p.rateLimit.max - decision.count));
      rateHeaders["ratelimit-reset"] = String(decision.resetSeconds);
      rateHeaders["ratelimit-policy"] = `${p.rateLimit.max};w=${p.rateLimit.window}`;
      if (!decision.allowed) {
        throw new ProblemError(
          "rate-limited",
          `At most ${p.rateLimit.max} requests per ${p.rateLimit.window} s per key`,
          {
            headers: { "retry-after": String(decision.retryAfter) },
          },
        );
      }

      const matched = match(req.method, path);
      if (matched === null) throw new ProblemError("not-found", "No such endpoint");
      if (matched === "method")
        throw new ProblemError("method-not-allowed", `${req.method} is not allowed here`);
      const { route, params } = matched;
      current = route;
      checkScope(caller, route);

      const bytes = await readRequestBody(req, route);
      const idemKey = req.method === "POST" ? req.headers.get("idempotency-key") : null;
      if (idemKey === null) return await answer(route, params, query, bytes, req, caller, rateHeaders);

      if (!IDEMPOTENCY_KEY_RE.test(idemKey)) {
        throw new ProblemError("bad-request", "Idempotency-Key is 1 to 255 visible ASCII characters");
      }
      const claimKey = { keyId: caller.keyId, idempotencyKey: idemKey };
      const requestHash = createHash("sha256")
        .update(`${req.method} ${path}?${query.toString()}\n`)
        .update(bytes ?? new Uint8Array(0))
        .digest("hex");
      const claim = await claimIdempotentRequest(p.deps.db, { ...claimKey, requestHash });
      if (claim.state === "replay") {
        return {
          status: claim.answer.status,
          headers: { ...claim.answer.headers, ...rateHeaders, "idempotent-replayed": "true" },
          body: claim.answer.body,
        };
      }
      if (claim.state === "mismatch") throw new ProblemError("idempotency-key-reused");
      if (claim.state === "in_flight") throw new ProblemError("idempotency-key-in-use");
      let res: ManageResponse;
      try {
        res = await answer(route, params, query, bytes, req, caller, rateHeaders);
      } catch (err) {
        res = fail(err);
      }
      if (res.status >= 500 || res.status === 429) {
        await releaseIdempotentRequest(p.deps.db, claimKey);
      } else {
        await completeIdempotentRequest(p.deps.db, claimKey, {
          status: res.status,
          headers: withoutRateHeaders(res.headers),
          body: res.body ?? "",
        });
      }
      return res;
    } catch (err) {
      return fail(err);
    }
  };

  async function answer(
    route: Route,
    params: Record<string, string>,
    query: URLSearchParams,
    bytes: Uint8Array | null,
    req: ManageRequest,
    caller: ManagementCaller,
    rateHeaders: Record<string, string>,
  ): Promise<ManageResponse> {
    const body = route.body ? parseBody(route.body, bytes) : undefined;
    const q = route.query ? parseQuery(route.query, query) : undefined;
    const ifMatchHeader = route.etag ? req.headers.get("if-match") : null;
    const ifMatch = ifMatchHeader === null || ifMatchHeader.trim() === "*" ? undefined : ifMatchHeader.trim();
    const ctx = managementCtx(p.deps, caller);
    const result = await route.handle({ ctx, params, body, query: q, ifMatch });
    const headers: Record<string, string> = { ...rateHeaders };
    if (result.etag) headers.etag = result.etag;
    const status = route.status ?? 200;
    if (status === 204) return { status, headers, body: null };
    return json(status, result.body, headers);
  }
}

/** An answer's headers to store for replay: the rate-limit ones are the replay's own. */
function withoutRateHeaders(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith("ratelimit-")));
}

/** Read keys read; write keys read and write their organization; operator keys only the operator routes. */
function checkScope(caller: ManagementCaller, route: Route): void {
  if (route.scope === "operator") {
    if (caller.scope !== "operator")
      throw new ProblemError("forbidden", "This endpoint needs an operator key");
    return;
  }
  if (caller.scope === "operator") {
    throw new ProblemError(
      "forbidden",
      "Operator keys serve the operator endpoints only; use an organization's key",
    );
  }
  if (route.scope === "write" && caller.scope !== "write") {
    throw new ProblemError("forbidden", "This key is read-only; this endpoint needs a write key");
  }
}

async function readRequestBody(req: ManageRequest, route: Route): Promise<Uint8Array | null> {
  if (!route.body) return null;
  const type = req.headers.get("content-type");
  const bytes = await req.readBody(MANAGE_BODY_LIMIT);
  if (bytes === null) throw new ProblemError("payload-too-large", `At most ${MANAGE_BODY_LIMIT} bytes`);
  if (bytes.byteLength > 0 && type !== null) {
    const media = type.split(";")[0]!.trim().toLowerCase();
    if (media !== JSON_TYPE && !media.endsWith("+json")) {
      throw new ProblemError("unsupported-media-type", "Send the body as application/json");
    }
  }
  return bytes;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function parseBody(schema: z.ZodType, bytes: Uint8Array | null): unknown {
  let raw: unknown;
  try {
    const text = bytes && bytes.byteLength > 0 ? utf8.decode(bytes) : "";
    raw = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    throw new ProblemError("invalid-json", "The body is not valid UTF-8 JSON");
  }
  if (raw === undefined)
    throw new ProblemError("validation-failed", "A JSON body is required", {
      errors: [{ pointer: "", detail: "Required" }],
    });
  const bad = badTextAt(raw);
  if (bad !== null) {
    throw new ProblemError("validation-failed", undefined, {
      errors: [{ pointer: bad, detail: "Text cannot contain NUL or unpaired surrogates" }],
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ProblemError("validation-failed", undefined, { errors: zodFieldErrors(parsed.error, "body") });
  }
  return parsed.data;
}

function parseQuery(schema: z.ZodType, query: URLSearchParams): unknown {
  const raw: Record<string, string> = {};
  for (const [k, v] of query) raw[k] = v;
  const bad = badTextAt(raw);
  if (bad !== null) {
    throw new ProblemError("validation-failed", undefined, {
      errors: [{ parameter: bad.slice(1), detail: "Text cannot contain NUL or unpaired surrogates" }],
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ProblemError("validation-failed", undefined, { errors: zodFieldErrors(parsed.error, "query") });
  }
  return parsed.data;
}
