import { getUsageOverview } from "@breakwater/core";
import { z } from "zod";
import { usageResource } from "../schemas";
import { route } from "./define";

/**
 * The query of GET /usage: core's usage input as query parameters (numbers arrive as text). Core
 * validates it again with its own schema, whose cross-field rules (from ≤ to, lastHours alone)
 * answer as field errors on these same names.
 */
const usageQuery = z.object({
  projectId: z.string().min(1).max(100).optional(),
  from: z.string().optional().meta({ description: "First UTC day, YYYY-MM-DD (with to)" }),
  to: z.string().optional().meta({ description: "Last UTC day, inclusive, YYYY-MM-DD" }),
  lastHours: z.coerce
    .number({ error: "lastHours is a whole number of hours" })
    .int("lastHours is a whole number of hours")
    .optional()
    .meta({ description: "A rolling window of the last N hours instead of from/to" }),
  granularity: z.enum(["day", "hour"]).optional(),
});

export const usageRoutes = [
  route({
    operationId: "getUsage",
    method: "GET",
    path: "/usage",
    tag: "Usage",
    summary: "Spend and calls over a range, by day or hour, provider, model, tag and run",
    description:
      "For one project (projectId) or the whole organization. Served from the hourly rollups: events received before rolledUpTo are in the figures. Money is decimal strings in USD; unpriced usage is counted in tokens, never as $0.",
    scope: "read",
    query: usageQuery,
    response: usageResource,
    handle: async ({ ctx, query }) => ({ body: await getUsageOverview(ctx, query) }),
  }),
];
