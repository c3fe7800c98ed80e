import {
  budgetUnavailable,
  methodNotAllowed,
  notFound,
  serviceUnavailable,
  toResponse,
  unauthorized,
  type WireResult,
} from "../errors";
import { pathOf, type WireRequest } from "../http";
import { leaseUnavailable } from "../lease-errors";
import { breakerReports } from "./breaker-reports";
import { check } from "./check";
import { confirm } from "./confirm";
import type { WireContext } from "./context";
import { type Handler, type Recover, recoverer } from "./gate";
import { health, openapi, ready } from "./health";
import { ingest } from "./ingest";
import { leaseGrant } from "./lease-grant";
import { leaseRenew } from "./lease-renew";
import { leaseSurrender } from "./lease-surrender";
import { untrackedSurfaces } from "./untracked-surfaces";

interface Route<N extends string = string> {
  /** The name a Next.js route file mounts (`mountWire(name)`). */
  name: N;
  methods: readonly string[];
  /** An exact path, or a pattern whose groups are the handler's (URI-decoded) params. */
  path: string | RegExp;
  /** The endpoint's work; what escapes it is answered by `recover`. */
  call: Handler;
  recover: Recover;
  /** Position in WIRE_ENDPOINTS (the metrics' endpoint label). */
  index: number;
}

const ignore = () => undefined;

/** One shared answer for every request refused from its header alone. */
const REFUSED: Promise<WireResult> = Promise.resolve(unauthorized());

/**
 * A write endpoint: its faults answer `unavailable` (retryable 503) and never escape as a 500 body.
 * A request whose key is refused from memory (none, malformed, or outside the known set) is
 * answered here, without entering the handler: under a flood of such requests each costs a header
 * read and a set lookup. Everything else carries the verdict to the gate (`req.authed`).
 */
const post = <N extends string>(
  name: N,
  path: string | RegExp,
  handle: Handler,
  unavailable = serviceUnavailable,
): Route<N> => ({
  name,
  index: -1,
  methods: ["POST"],
  path,
  call: (ctx, req, params) => {
    const authed = ctx.auth.authenticate(req.headers.get("authorization"));
    if (authed === null) return REFUSED;
    // A lookup in flight: the gate awaits the same single-flight load and answers its failure
    // (503 when Postgres is down); this copy of it must not surface as an unhandled rejection.
    if (authed instanceof Promise) authed.catch(ignore);
    req.authed = authed;
    return handle(ctx, req, params);
  },
  recover: recoverer(name, unavailable),
});

const read = <N extends string>(name: N, path: string, handle: Handler): Route<N> => ({
  name,
  index: -1,
  methods: ["GET", "HEAD"],
  path,
  call: handle,
  recover: recoverer(name, serviceUnavailable),
});

/**
 * Every SDK API endpoint: method + path → handler. An endpoint is one handler file, one line
 * here and one entry in openapi.ts. The budget endpoints answer backend faults with the check's
 * 503 body, the others with the generic one.
 */
export const ROUTES = [
  post("check", "/api/v1/budgets/check", check, budgetUnavailable),
  post("confirm", "/api/v1/budgets/confirm", confirm, budgetUnavailable),
  post("leaseGrant", "/api/v1/budgets/lease", leaseGrant, leaseUnavailable),
  post("leaseRenew", "/api/v1/budgets/lease/renew", leaseRenew, leaseUnavailable),
  post("leaseSurrender", "/api/v1/budgets/lease/surrender", leaseSurrender, leaseUnavailable),
  post("ingest", "/api/v1/metadata/ingest", ingest),
  post("untrackedSurfaces", "/api/v1/untracked-surfaces", untrackedSurfaces),
  post("breakerReports", /^\/api\/v1\/projects\/([^/]+)\/providers\/breaker-reports\/?$/, breakerReports),
  read("health", "/health", health),
  read("ready", "/health/ready", ready),
  read("openapi", "/api/v1/openapi.json", openapi),
] as const;

export type RouteName = (typeof ROUTES)[number]["name"];

/** The metrics' endpoint labels: every route's name, then `unmatched` for paths no route serves. */
export const WIRE_ENDPOINTS: readonly string[] = [...ROUTES.map((r) => r.name), "unmatched"];
const UNMATCHED = WIRE_ENDPOINTS.length - 1;

const EXACT = new Map<string, Route>();
const PATTERNS: Route[] = [];
const BY_NAME = new Map<string, Route>();
for (const [i, r] of (ROUTES as readonly Route[]).entries()) {
  r.index = i;
  if (typeof r.path === "string") EXACT.set(r.path, r);
  else PATTERNS.push(r);
  BY_NAME.set(r.name, r);
}
const NO_PARAMS: readonly string[] = [];

function run(
  ctx: WireContext,
  route: Route,
  req: WireRequest,
  params: readonly string[],
): Promise<WireResult> {
  const metrics = ctx.metrics;
  if (!route.methods.includes(req.method)) {
    metrics?.count(route.index, 405);
    return Promise.resolve(methodNotAllowed());
  }
  const { recover } = route;
  if (metrics === undefined) return route.call(ctx, req, params).then(undefined, (err) => recover(ctx, err));
  // One timestamp and one continuation per request (answer or failure alike); the recording
  // itself is array arithmetic.
  const started = performance.now();
  const seen = (r: WireResult) => {
    metrics.observe(route.index, r.status, started);
    return r;
  };
  return route.call(ctx, req, params).then(seen, (err: unknown) => seen(recover(ctx, err)));
}

function unmatched(ctx: WireContext, result: WireResult): Promise<WireResult> {
  ctx.metrics?.count(UNMATCHED, result.status);
  return Promise.resolve(result);
}

/** The URI-decoded groups of a pattern route, or null when the path does not match or cannot be decoded. */
function paramsOf(route: Route, path: string): string[] | null {
  const m = (route.path as RegExp).exec(path);
  if (!m) return null;
  try {
    return m.slice(1).map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
}

/** Routes one request by path and method: unknown paths are 404, a known path with another method 405. */
export function dispatch(ctx: WireContext, req: WireRequest): Promise<WireResult> {
  try {
    const path = pathOf(req.url);
    const exact = EXACT.get(path);
    if (exact) return run(ctx, exact, req, NO_PARAMS);
    for (const route of PATTERNS) {
      if (!(route.path as RegExp).test(path)) continue;
      const params = paramsOf(route, path);
      // A path that cannot be decoded names no project.
      return params ? run(ctx, route, req, params) : unmatched(ctx, notFound("Project not found"));
    }
    return unmatched(ctx, notFound());
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * A fetch-style `(Request) => Promise<Response>` for a Next.js route file: one named endpoint
 * (Next.js has routed the path already), or `dispatch` for the whole table.
 */
export function fetchRoute(
  ctx: WireContext,
  name: RouteName | "dispatch",
): (req: Request) => Promise<Response> {
  if (name === "dispatch") return (req) => dispatch(ctx, req).then(toResponse);
  const route = BY_NAME.get(name)!;
  if (typeof route.path === "string") return (req) => run(ctx, route, req, NO_PARAMS).then(toResponse);
  return (req) => {
    const params = paramsOf(route, pathOf(req.url));
    return (params ? run(ctx, route, req, params) : unmatched(ctx, notFound("Project not found"))).then(
      toResponse,
    );
  };
}
