import { apiKeyRoutes } from "./api-keys";
import { auditRoutes } from "./audit";
import { budgetRoutes } from "./budgets";
import type { Route } from "./define";
import { fleetRoutes } from "./fleet";
import { memberRoutes } from "./members";
import { operatorRoutes } from "./operator";
import { projectRoutes } from "./projects";
import { tagRuleRoutes } from "./tag-rules";
import { usageRoutes } from "./usage";
import { webhookRoutes } from "./webhooks";

/** Every endpoint of the management API, in the order the OpenAPI document lists them. */
export const MANAGE_ROUTES: readonly Route[] = [
  ...projectRoutes,
  ...budgetRoutes,
  ...tagRuleRoutes,
  ...apiKeyRoutes,
  ...webhookRoutes,
  ...fleetRoutes,
  ...usageRoutes,
  ...memberRoutes,
  ...auditRoutes,
  ...operatorRoutes,
];
