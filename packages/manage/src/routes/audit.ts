import { isDomainError, listAuditEvents } from "@breakwater/core";
import { z } from "zod";
import { pageQuery } from "../pagination";
import { ProblemError } from "../problem";
import { auditEventResource } from "../schemas";
import { route } from "./define";

const auditQuery = pageQuery.extend({
  /** A target type (`project`) or action prefix (`api_key`, `management_key`). */
  kind: z
    .string()
    .regex(/^[a-z_]{1,40}$/, "kind is a target type or action prefix, e.g. project")
    .optional(),
  /** A user id, a management key id, or `system`. */
  actor: z.string().min(1).max(100).optional(),
  from: z.iso.datetime({ offset: true, error: "from is an ISO 8601 time" }).optional(),
  to: z.iso.datetime({ offset: true, error: "to is an ISO 8601 time" }).optional(),
});

export const auditRoutes = [
  route({
    operationId: "listAuditEvents",
    method: "GET",
    path: "/audit-events",
    tag: "Audit log",
    summary: "List the organization's audit events, newest first",
    description:
      "As in the dashboard, admins only: a write key reads the log, a read key gets 403. Events older than the plan's audit_log_days are not kept.",
    scope: "read",
    query: auditQuery,
    response: auditEventResource,
    list: true,
    handle: async ({ ctx, query }) => {
      const page = await listAuditEvents(ctx, {
        limit: query.limit,
        startingAfter: query.starting_after,
        kind: query.kind,
        actorId: query.actor,
        from: query.from,
        to: query.to,
      }).catch((err: unknown) => {
        // Core names its input fields; here they are query parameters.
        if (isDomainError(err) && err.code === "INVALID") {
          const fe = (err.details?.fieldErrors ?? {}) as Record<string, string>;
          const names: Record<string, string> = { startingAfter: "starting_after", actorId: "actor" };
          throw new ProblemError("validation-failed", err.message, {
            errors: Object.entries(fe).map(([k, detail]) => ({ parameter: names[k] ?? k, detail })),
          });
        }
        throw err;
      });
      return { body: { data: page.events, has_more: page.nextCursor !== null } };
    },
  }),
];
