import { deleteTagRule, getBudgetSettings, saveTagRule, saveTagRuleInput } from "@breakwater/core";
import { pageQuery, paginate } from "../pagination";
import { tagRuleResource } from "../schemas";
import { route } from "./define";

const ruleBody = saveTagRuleInput.omit({ projectId: true, ruleId: true });

export const tagRuleRoutes = [
  route({
    operationId: "listTagRules",
    method: "GET",
    path: "/projects/{projectId}/tag-rules",
    tag: "Tag rules",
    summary: "List a project's tag rules (spend limits on calls carrying given tags)",
    scope: "read",
    query: pageQuery,
    response: tagRuleResource,
    list: true,
    handle: async ({ ctx, params, query }) => ({
      body: paginate((await getBudgetSettings(ctx, { projectId: params.projectId! })).tagRules, query),
    }),
  }),
  route({
    operationId: "createTagRule",
    method: "POST",
    path: "/projects/{projectId}/tag-rules",
    tag: "Tag rules",
    summary: "Create a tag rule",
    description: "Checks whose tags contain every selector pair are limited to limitUsd per period.",
    scope: "write",
    body: ruleBody,
    response: tagRuleResource,
    status: 201,
    handle: async ({ ctx, params, body }) => ({
      body: await saveTagRule(ctx, { ...body, projectId: params.projectId! }),
    }),
  }),
  route({
    operationId: "replaceTagRule",
    method: "PUT",
    path: "/projects/{projectId}/tag-rules/{ruleId}",
    tag: "Tag rules",
    summary: "Replace a tag rule (its counters start afresh)",
    scope: "write",
    body: ruleBody,
    response: tagRuleResource,
    handle: async ({ ctx, params, body }) => ({
      body: await saveTagRule(ctx, { ...body, projectId: params.projectId!, ruleId: params.ruleId! }),
    }),
  }),
  route({
    operationId: "deleteTagRule",
    method: "DELETE",
    path: "/projects/{projectId}/tag-rules/{ruleId}",
    tag: "Tag rules",
    summary: "Delete a tag rule",
    scope: "write",
    status: 204,
    handle: async ({ ctx, params }) => {
      await deleteTagRule(ctx, { projectId: params.projectId!, ruleId: params.ruleId! });
      return {};
    },
  }),
];
