import { type Ctx, getFleetOverview, listIncidents, listIncidentsInput, notFound } from "@breakwater/core";
import { z } from "zod";
import { pageQuery, paginate } from "../pagination";
import { fleetResource, incidentResource } from "../schemas";
import { route } from "./define";

const orgOf = (ctx: Ctx) => ctx.organizationId!;

/** GET /projects/{projectId}/incidents: the cursor, and core's filters as query parameters (numbers arrive as text). */
const incidentsQuery = pageQuery.extend({
  status: listIncidentsInput.shape.status,
  provider: listIncidentsInput.shape.provider,
  days: z
    .enum(["30", "90"], { error: "days is 30 or 90" })
    .default("30")
    .transform(Number)
    .meta({ description: "Incidents opened in the last 30 or 90 days" }),
});

/** Fleet health as the dashboard's fleet pages show it: a project's providers, and its incidents. */
export const fleetRoutes = [
  route({
    operationId: "getFleet",
    method: "GET",
    path: "/projects/{projectId}/fleet",
    tag: "Fleet",
    summary:
      "A project's fleet: per provider, its status and Healthy, Down, Recovering and stale instance counts",
    description:
      "The fleet page's row of this project. Stale instances (silent past staleAfterSeconds) are counted apart and do not decide the status.",
    scope: "read",
    response: fleetResource,
    handle: async ({ ctx, params }) => {
      const overview = await getFleetOverview(ctx, {
        organizationId: orgOf(ctx),
        projectIds: [params.projectId!],
      });
      const project = overview.projects.find((p) => p.id === params.projectId);
      if (!project) throw notFound("Project");
      const providers = overview.providers
        .map((provider) => ({ provider, cell: project.cells[provider]! }))
        .filter(({ cell }) => cell.reported)
        .map(({ provider, cell: { reported: _r, ...cell } }) => ({ provider, ...cell }));
      return {
        body: {
          projectId: project.id,
          generatedAt: overview.generatedAt,
          staleAfterSeconds: overview.staleAfterSeconds,
          status: project.status,
          providers,
        },
      };
    },
  }),
  route({
    operationId: "listIncidents",
    method: "GET",
    path: "/projects/{projectId}/incidents",
    tag: "Fleet",
    summary: "A project's provider incidents, newest first",
    description:
      "Incidents opened in the last 30 (default) or 90 days, at most 500, as the dashboard's incident history lists them; filter by status (open, resolved) and provider.",
    scope: "read",
    query: incidentsQuery,
    response: incidentResource,
    list: true,
    handle: async ({ ctx, params, query }) => {
      const { incidents } = await listIncidents(ctx, {
        organizationId: orgOf(ctx),
        projectId: params.projectId!,
        days: query.days as 30 | 90,
        status: query.status,
        provider: query.provider,
      });
      return { body: paginate(incidents, query) };
    },
  }),
];
