import {
  clearEntitlementOverride,
  type clearOverrideInput,
  createPlan,
  type createPlanInput,
  diffPlanVersions,
  explainProjectEntitlements,
  getPlan,
  listEntitlementOverrides,
  listOrganizationsForOperator,
  listPlans,
  listUsersForOperator,
  pinSubscription,
  setEntitlementOverride,
  setOperatorRole,
  setOrganizationPlan,
  type setOrganizationPlanInput,
  type setOverrideInput,
  setPlanArchived,
  updatePlan,
  type updatePlanInput,
} from "@breakwater/core";
import { z } from "zod";
import { operatorProcedure, router } from "../init";

/**
 * The operator console: plans and their versions, organizations' subscriptions and entitlement
 * overrides. Every procedure is behind operatorProcedure (FORBIDDEN for anyone else); core checks
 * the operator role again and validates, audits and invalidates.
 */
export const operatorRouter = router({
  listPlans: operatorProcedure.query(({ ctx }) => listPlans(ctx.core)),
  getPlan: operatorProcedure
    .input(z.object({ planSlug: z.string().min(1) }))
    .query(({ ctx, input }) => getPlan(ctx.core, input.planSlug)),
  // Inputs are validated by core (field errors for the form), so the edge takes them loosely.
  createPlan: operatorProcedure
    .input((raw) => raw as z.input<typeof createPlanInput>)
    .mutation(({ ctx, input }) => createPlan(ctx.core, input)),
  updatePlan: operatorProcedure
    .input((raw) => raw as z.input<typeof updatePlanInput>)
    .mutation(({ ctx, input }) => updatePlan(ctx.core, input)),
  diffPlanVersions: operatorProcedure
    .input(z.object({ planSlug: z.string().min(1), from: z.number().int(), to: z.number().int() }))
    .query(({ ctx, input }) => diffPlanVersions(ctx.core, input)),
  setPlanArchived: operatorProcedure
    .input(z.object({ planSlug: z.string().min(1), archived: z.boolean() }))
    .mutation(({ ctx, input }) => setPlanArchived(ctx.core, input)),

  listOrganizations: operatorProcedure.query(({ ctx }) => listOrganizationsForOperator(ctx.core)),
  setOrganizationPlan: operatorProcedure
    .input((raw) => raw as z.input<typeof setOrganizationPlanInput>)
    .mutation(({ ctx, input }) => setOrganizationPlan(ctx.core, input)),
  pinSubscription: operatorProcedure
    .input(z.object({ organization: z.string().min(1), version: z.number().int().min(1).nullable() }))
    .mutation(({ ctx, input }) => pinSubscription(ctx.core, input)),
  listOverrides: operatorProcedure
    .input(z.object({ organization: z.string().min(1) }))
    .query(({ ctx, input }) => listEntitlementOverrides(ctx.core, input.organization)),
  setOverride: operatorProcedure
    .input((raw) => raw as z.input<typeof setOverrideInput>)
    .mutation(({ ctx, input }) => setEntitlementOverride(ctx.core, input)),
  clearOverride: operatorProcedure
    .input((raw) => raw as z.input<typeof clearOverrideInput>)
    .mutation(({ ctx, input }) => clearEntitlementOverride(ctx.core, input)),
  /** Users of the installation with their operator flag. */
  listUsers: operatorProcedure.query(({ ctx }) => listUsersForOperator(ctx.core)),
  /** Grants or revokes the operator role of another user (audited; the last operator stays). */
  setOperatorRole: operatorProcedure
    .input(z.object({ user: z.string().min(1), isOperator: z.boolean() }))
    .mutation(({ ctx, input }) => setOperatorRole(ctx.core, input)),
  /** "Why this value" for any project of any organization. */
  projectEntitlements: operatorProcedure
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => explainProjectEntitlements(ctx.core, input.projectId)),
});
