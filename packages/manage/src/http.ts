import { PROBLEM_TYPES, type Problem } from "./problem";

/** What the pipeline needs of a request, from a Node IncomingMessage or a fetch Request alike. */
export interface ManageRequest {
  method: string;
  /** Path and query, e.g. `/api/manage/v1/projects?limit=10`. */
  url: string;
  headers: { get(name: string): string | null };
  /** The whole body, or null past `limit` bytes. */
  readBody(limit: number): Promise<Uint8Array | null>;
}

/** An answer: status, headers and a body already serialized. */
export interface ManageResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export const JSON_TYPE = "application/json";
export const PROBLEM_JSON_TYPE = "application/problem+json";

/** A JSON answer. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): ManageResponse {
  return { status, headers: { "content-type": JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** A problem+json answer. */
export function problemResponse(p: Problem, headers: Record<string, string> = {}): ManageResponse {
  return {
    status: p.status,
    headers: { "content-type": PROBLEM_JSON_TYPE, ...headers },
    body: JSON.stringify(p),
  };
}

/** The one problem every unexpected failure becomes: no message or stack leaves the server. */
export function internalProblem(instance?: string): Problem {
  const p: Problem = {
    type: "urn:breakwater:problem:internal",
    title: PROBLEM_TYPES.internal.title,
    status: 500,
  };
  if (instance) p.instance = instance;
  return p;
}

/** The path of a request target without its query string. */
export function splitTarget(url: string): { path: string; query: URLSearchParams } {
  const u = new URL(url, "http://localhost");
  return { path: u.pathname, query: u.searchParams };
}
