import { createCallerFactory, router } from "./init";
import { apiKeyRouter } from "./routers/api-key";
import { auditRouter } from "./routers/audit";
import { budgetRouter } from "./routers/budget";
import { fleetRouter } from "./routers/fleet";
import { leaseRouter } from "./routers/lease";
import { managementKeyRouter } from "./routers/management-key";
import { meRouter } from "./routers/me";
import { invitationRouter, memberRouter } from "./routers/member";
import { operatorRouter } from "./routers/operator";
import { organizationRouter } from "./routers/organization";
import { projectRouter } from "./routers/project";
import { runRouter } from "./routers/run";
import { setupRouter } from "./routers/setup";
import { usageRouter } from "./routers/usage";
import { webhooksRouter } from "./routers/webhooks";

/** The dashboard API: one router per entity, assembled here only. */
export const appRouter = router({
  me: meRouter,
  organization: organizationRouter,
  project: projectRouter,
  budget: budgetRouter,
  run: runRouter,
  lease: leaseRouter,
  apiKey: apiKeyRouter,
  managementKey: managementKeyRouter,
  fleet: fleetRouter,
  webhooks: webhooksRouter,
  usage: usageRouter,
  operator: operatorRouter,
  setup: setupRouter,
  member: memberRouter,
  invitation: invitationRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (React Server Components, tests) with a context built by createContext. */
export const createCaller = createCallerFactory(appRouter);
