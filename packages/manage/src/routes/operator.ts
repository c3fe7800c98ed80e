import {
  clearEntitlementOverride,
  createPriceCard,
  createPriceCardInput,
  listEntitlementOverrides,
  listPlans,
  listPriceCards,
  listPriceCardsInput,
  notFound,
  pinSubscription,
  pinSubscriptionInput,
  setEntitlementOverride,
  setOrganizationPlan,
  setOrganizationPlanInput,
  setOverrideFields,
  updatePlan,
  updatePlanInput,
} from "@breakwater/core";
import { z } from "zod";
import { asQueryProblem, pageQuery, paginate } from "../pagination";
import {
  overrideResource,
  planResource,
  planVersionResource,
  priceCardResource,
  subscriptionResource,
} from "../schemas";
import { route } from "./define";

/** PUT …/pin names a version; unpinning is the DELETE. */
const pinBody = z.object({ version: pinSubscriptionInput.shape.version.unwrap() });

/**
 * The installation's endpoints, for operator keys, each calling the operator console's use case:
 * plans and their versions, which plan (and version) an organization is on, its entitlement
 * overrides, and the price catalogue.
 */
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
    operationId: "createPlanVersion",
    method: "POST",
    path: "/operator/plans/{planSlug}/versions",
    tag: "Operator",
    summary: "Save a new version of a plan: its price, entitlements, name and change note",
    description:
      "As the operator console's plan editor: features not given keep the previous version's value, and an unknown feature or a value of the wrong type is a 422 on its field. expectedVersion is the latest version you read; when another version was saved since, the save is refused (409). Unpinned subscriptions follow the new version at once.",
    scope: "operator",
    body: updatePlanInput.omit({ planSlug: true }),
    response: planVersionResource,
    status: 201,
    handle: async ({ ctx, params, body }) => {
      const plan = await updatePlan(ctx, { ...body, planSlug: params.planSlug! });
      const latest = plan.versions[0]!;
      return { body: { ...latest, planSlug: plan.slug, planName: plan.name } };
    },
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
  route({
    operationId: "pinOrganizationVersion",
    method: "PUT",
    path: "/operator/organizations/{organization}/pin",
    tag: "Operator",
    summary: "Pin an organization to one version of its plan (grandfathering)",
    description:
      "New versions of the plan no longer reach it until it is unpinned. 422 when the plan has no such version.",
    scope: "operator",
    body: pinBody,
    response: subscriptionResource,
    handle: async ({ ctx, params, body }) => ({
      body: await pinSubscription(ctx, { organization: params.organization!, version: body.version }),
    }),
  }),
  route({
    operationId: "unpinOrganizationVersion",
    method: "DELETE",
    path: "/operator/organizations/{organization}/pin",
    tag: "Operator",
    summary: "Unpin an organization: it follows its plan's latest version again",
    scope: "operator",
    response: subscriptionResource,
    handle: async ({ ctx, params }) => ({
      body: await pinSubscription(ctx, { organization: params.organization!, version: null }),
    }),
  }),
  route({
    operationId: "listOverrides",
    method: "GET",
    path: "/operator/organizations/{organization}/overrides",
    tag: "Operator",
    summary: "List an organization's entitlement overrides (its projects' too), newest first",
    description: "Expired overrides are listed too (they no longer apply; see expiresAt).",
    scope: "operator",
    query: pageQuery,
    response: overrideResource,
    list: true,
    handle: async ({ ctx, params, query }) => ({
      body: paginate(await listEntitlementOverrides(ctx, params.organization!), query),
    }),
  }),
  route({
    operationId: "setOverride",
    method: "POST",
    path: "/operator/organizations/{organization}/overrides",
    tag: "Operator",
    summary: "Override one feature for an organization, with a reason and an optional expiry",
    description:
      "Replaces an earlier override of the same feature. The value must fit the feature's type (422 on value); an expiry must lie in the future. Every replica's checks follow within a second.",
    scope: "operator",
    body: setOverrideFields.omit({ organization: true, projectId: true }),
    response: overrideResource,
    status: 201,
    handle: async ({ ctx, params, body }) => ({
      body: await setEntitlementOverride(ctx, { ...body, organization: params.organization! }),
    }),
  }),
  route({
    operationId: "deleteOverride",
    method: "DELETE",
    path: "/operator/organizations/{organization}/overrides/{overrideId}",
    tag: "Operator",
    summary: "Remove an override: the feature falls back to the plan's value",
    scope: "operator",
    status: 204,
    handle: async ({ ctx, params }) => {
      const overrides = await listEntitlementOverrides(ctx, params.organization!);
      const o = overrides.find((x) => x.id === params.overrideId);
      if (!o) throw notFound("Override");
      await clearEntitlementOverride(
        ctx,
        o.projectId
          ? { projectId: o.projectId, featureKey: o.featureKey }
          : { organization: o.organizationId, featureKey: o.featureKey },
      );
      return {};
    },
  }),
  route({
    operationId: "listPriceCards",
    method: "GET",
    path: "/operator/price-cards",
    tag: "Operator",
    summary: "List the price catalogue's cards, by provider then model",
    description: "search matches provider, model or an alias (case-insensitive substring).",
    scope: "operator",
    query: pageQuery.extend({ search: listPriceCardsInput.shape.search }),
    response: priceCardResource,
    list: true,
    handle: async ({ ctx, query }) => {
      const page = await listPriceCards(ctx, {
        search: query.search,
        cursor: query.starting_after,
        limit: query.limit,
      }).catch(asQueryProblem({ cursor: "starting_after" }));
      return { body: { data: page.items, has_more: page.nextCursor !== null } };
    },
  }),
  route({
    operationId: "createPriceCard",
    method: "POST",
    path: "/operator/price-cards",
    tag: "Operator",
    summary: "Add a price card: a model's rates, with its aliases and patterns",
    description:
      "Validated as the operator console's card form: rates are decimal strings in USD per million tokens, and a model id, alias or pattern another card of the provider already answers to is a 422 on that field. Every replica prices with it within a second.",
    scope: "operator",
    body: createPriceCardInput,
    response: priceCardResource,
    status: 201,
    handle: async ({ ctx, body }) => ({ body: await createPriceCard(ctx, body) }),
  }),
];
