import {
  type BudgetSettingsDto,
  budgetRulesEtag,
  getBudgetSettings,
  updateBudgetSettings,
  updateBudgetSettingsInput,
} from "@breakwater/core";
import { budgetResource } from "../schemas";
import { route } from "./define";

/** The budget resource (mode, limits, thresholds, run cap) of a project's settings, and its entity tag. */
function budgetOf(s: BudgetSettingsDto) {
  const body = {
    projectId: s.projectId,
    mode: s.mode,
    limits: s.limits,
    thresholds: s.thresholds,
    runSpendCapUsd: s.runSpendCapUsd,
  };
  return { body, etag: budgetRulesEtag(body) };
}

export const budgetRoutes = [
  route({
    operationId: "getBudget",
    method: "GET",
    path: "/projects/{projectId}/budget",
    tag: "Budgets",
    summary: "Read a project's budget: mode, period limits, threshold alerts and run spend cap",
    description: "Answers an ETag; send it back as If-Match when replacing the budget.",
    scope: "read",
    response: budgetResource,
    etag: true,
    handle: async ({ ctx, params }) =>
      budgetOf(await getBudgetSettings(ctx, { projectId: params.projectId! })),
  }),
  route({
    operationId: "replaceBudget",
    method: "PUT",
    path: "/projects/{projectId}/budget",
    tag: "Budgets",
    summary: "Replace a project's budget",
    description:
      "Every replica's budget checks follow within a second. With If-Match, a budget changed since it was read is not overwritten (412).",
    scope: "write",
    body: updateBudgetSettingsInput.omit({ projectId: true }),
    response: budgetResource,
    etag: true,
    handle: async ({ ctx, params, body, ifMatch }) =>
      budgetOf(await updateBudgetSettings(ctx, { ...body, projectId: params.projectId! }, { ifMatch })),
  }),
];
