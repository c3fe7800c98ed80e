import type { Ctx, ManagementScope } from "@breakwater/core";
import type { z } from "zod";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route's handler is given: the caller's core context, the path parameters, and the parsed body and query. */
export interface RouteCall<B, Q> {
  ctx: Ctx;
  params: Record<string, string>;
  body: B;
  query: Q;
  /** The request's If-Match entity tag (routes with `etag`), undefined when absent or `*`. */
  ifMatch?: string;
}

/** What a handler answers: a JSON body (none for 204), and the entity tag of a replaceable resource. */
export interface RouteResult {
  body?: unknown;
  etag?: string;
}

/**
 * One endpoint of the management API: method, path, the scope a key needs, its zod schemas (the
 * very ones the handler validates with and the OpenAPI document is generated from) and a handler
 * that calls one core use case. Lists answer `{ data, has_more }` pages of `item`.
 */
export interface Route {
  operationId: string;
  method: Method;
  /** OpenAPI-style template under /api/manage/v1, e.g. `/projects/{projectId}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  scope: ManagementScope;
  body?: z.ZodType;
  query?: z.ZodType;
  /** The success body's schema; absent for 204. For lists, the schema of one item. */
  response?: z.ZodType;
  list?: boolean;
  /** Success status: 200 by default, 201 for creates, 204 for deletes. */
  status?: 200 | 201 | 204;
  /** A replaceable resource: GET answers ETag, PUT honours If-Match (412 when stale). */
  etag?: boolean;
  handle(call: RouteCall<unknown, unknown>): Promise<RouteResult>;
}

/**
 * Declares a route with its handler typed by its schemas (the schemas' outputs are what the
 * handler receives, already validated).
 */
export function route<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(
  def: Omit<Route, "handle" | "body" | "query"> & {
    body?: B;
    query?: Q;
    handle(
      call: RouteCall<
        B extends z.ZodType ? z.output<B> : undefined,
        Q extends z.ZodType ? z.output<Q> : undefined
      >,
    ): Promise<RouteResult>;
  },
): Route {
  return def as unknown as Route;
}
