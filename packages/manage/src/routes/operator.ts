import { listPlans, setOrganizationPlan, setOrganizationPlanInput } from "@breakwater/core";
import { pageQuery, paginate } from "../pagination";
import { planResource, subscriptionResource } from "../schemas";
import { route } from "./define";

/** The installation's endpoints, for operator keys: plans, and which plan an organization is on. */
export const operatorRoutes = [
  route({
    operationId: "listPlans",
    method: "GET",
    path: "/operator/plans",
    tag: "Operator",
    summary: "List the plans with their latest version's price and entitlements",
    scope: "operator",
    query: pageQuery,
    response: planResource,
    list: true,
    handle: async ({ ctx, query }) => ({ body: paginate(await listPlans(ctx), query) }),
  }),
  route({
    operationId: "setOrganizationPlan",
    method: "PUT",
    path: "/operator/organizations/{organization}/plan",
    tag: "Operator",
    summary: "Move an organization (id or slug) to a plan's latest version",
    description: "Drops a version pin. Every replica's checks follow the new entitlements within a second.",
    scope: "operator",
    body: setOrganizationPlanInput.pick({ planSlug: true }),
    response: subscriptionResource,
    handle: async ({ ctx, params, body }) => ({
      body: await setOrganizationPlan(ctx, { organization: params.organization!, planSlug: body.planSlug }),
    }),
  }),
];
