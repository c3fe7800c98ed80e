/**
 * @breakwater/client: a typed client of the management API (/api/manage/v1), its types generated
 * from the published OpenAPI document (src/generated/openapi.ts) and its requests made by
 * openapi-fetch, so a path, parameter or body the API does not have is a type error.
 *
 *   const bw = createBreakwaterClient({ baseUrl: "https://breakwater.example.com", token });
 *   const project = unwrap(await bw.POST("/api/manage/v1/projects", { body: { name: "payments" } }));
 *   const all = await listAll((starting_after) =>
 *     bw.GET("/api/manage/v1/projects", { params: { query: { limit: 100, starting_after } } }));
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi";

export type { components, operations, paths } from "./generated/openapi";

/** Where the management API lives on the dashboard's port; every path of the document starts with it. */
export const MANAGE_BASE_PATH = "/api/manage/v1";

export type BreakwaterClient = Client<paths>;
export type Problem = components["schemas"]["Problem"];
export type Project = components["schemas"]["Project"];
export type ApiKey = components["schemas"]["ApiKey"];
export type CreatedApiKey = components["schemas"]["CreatedApiKey"];
export type Budget = components["schemas"]["Budget"];
export type Plan = components["schemas"]["Plan"];
export type Subscription = components["schemas"]["Subscription"];

export interface BreakwaterClientOptions {
  /** The dashboard's URL, e.g. `https://breakwater.example.com` (a trailing `/api/manage/v1` is accepted too). */
  baseUrl: string;
  /** A management key, `sk_mgmt_…` (Settings → API access). */
  token: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Sent with every request besides the bearer token, e.g. a User-Agent. */
  headers?: Record<string, string>;
}

/**
 * The dashboard's origin (and path prefix, for a dashboard served under one) from what a user
 * typed: trailing slashes and a trailing /api/manage/v1 dropped. Throws a TypeError naming the
 * value when it is not an http(s) URL.
 */
export function dashboardBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TypeError(
      `not a URL: "${raw}" (expected the dashboard's URL, e.g. https://breakwater.example.com)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`not an http(s) URL: "${raw}"`);
  }
  let path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith(MANAGE_BASE_PATH)) path = path.slice(0, -MANAGE_BASE_PATH.length);
  return `${url.origin}${path}`;
}

/** A client of the management API at `baseUrl` that sends `token` as its bearer token on every request. */
export function createBreakwaterClient(opts: BreakwaterClientOptions): BreakwaterClient {
  return createClient<paths>({
    baseUrl: dashboardBaseUrl(opts.baseUrl),
    headers: { ...opts.headers, authorization: `Bearer ${opts.token}` },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

/** True for an RFC 9457 problem as the management API answers one. */
export function isProblem(value: unknown): value is Problem {
  const v = value as Partial<Problem> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.type === "string" &&
    typeof v.title === "string" &&
    typeof v.status === "number"
  );
}

/**
 * An error answer of the management API. `type` is the problem's stable URI
 * (urn:breakwater:problem:…) to switch on; title and detail are for people. An answer that is not
 * problem+json (a proxy's 502 page) keeps its status, with `type` "about:blank".
 */
export class BreakwaterApiError extends Error {
  override name = "BreakwaterApiError";
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** Field errors of a 422. */
  readonly errors: NonNullable<Problem["errors"]>;

  constructor(status: number, body: unknown) {
    const problem = isProblem(body) ? body : null;
    const title = problem?.title ?? `HTTP ${status}`;
    const detail = problem?.detail;
    super(detail ? `${title}: ${detail}` : title);
    this.status = status;
    this.type = problem?.type ?? "about:blank";
    this.title = title;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
  }
}

/** What every openapi-fetch call resolves to: the data of a success, or the error body of a failure. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer (undefined for 204), or throws BreakwaterApiError for any other. */
export function unwrap<T>(answer: Answer<T>): T {
  if (!answer.response.ok || answer.error !== undefined) {
    throw new BreakwaterApiError(answer.response.status, answer.error);
  }
  return answer.data as T;
}

/** One page of a list: `{ data, has_more }`. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/**
 * Every item of a cursor-paged list, in the list's order: `fetchPage(startingAfter)` asks for the
 * page after the id it is given (undefined for the first). Throws BreakwaterApiError on an error answer.
 */
export async function* paginate<T extends { id: string }>(
  fetchPage: (startingAfter: string | undefined) => Promise<Answer<Page<T>>>,
): AsyncGenerator<T, void, undefined> {
  let after: string | undefined;
  for (;;) {
    const page = unwrap(await fetchPage(after));
    yield* page.data;
    const last = page.data.at(-1);
    if (!page.has_more || !last) return;
    after = last.id;
  }
}

/** Every item of a cursor-paged list, gathered (see `paginate`). */
export async function listAll<T extends { id: string }>(
  fetchPage: (startingAfter: string | undefined) => Promise<Answer<Page<T>>>,
): Promise<T[]> {
  const items: T[] = [];
  for await (const item of paginate(fetchPage)) items.push(item);
  return items;
}
