import {
  clearEntitlementOverride,
  type clearOverrideInput,
  createPlan,
  type createPlanInput,
  createPriceCard,
  diffPlanVersions,
  explainPriceHints,
  type explainPriceHintsInput,
  explainProjectEntitlements,
  getPlan,
  getPriceCard,
  getRepriceRun,
  listEntitlementOverrides,
  listOrganizationsForOperator,
  type listOrganizationsForOperatorInput,
  listPlans,
  listPriceCards,
  type listPriceCardsInput,
  listRepriceRuns,
  listUnpricedModels,
  listUsersForOperator,
  type PriceCardFieldsInput,
  pinSubscription,
  pinSubscriptionInput,
  setEntitlementOverride,
  setOperatorRole,
  setOrganizationPlan,
  type setOrganizationPlanInput,
  type setOverrideInput,
  setPlanArchived,
  startRepricing,
  type startRepricingInput,
  updatePlan,
  type updatePlanInput,
  updatePriceCard,
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

  /** Keyset-paged, searched by name or slug. */
  listOrganizations: operatorProcedure
    .input((raw) => (raw ?? {}) as z.input<typeof listOrganizationsForOperatorInput>)
    .query(({ ctx, input }) => listOrganizationsForOperator(ctx.core, input)),
  setOrganizationPlan: operatorProcedure
    .input((raw) => raw as z.input<typeof setOrganizationPlanInput>)
    .mutation(({ ctx, input }) => setOrganizationPlan(ctx.core, input)),
  pinSubscription: operatorProcedure
    .input(pinSubscriptionInput)
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
  listUsers: operatorProcedure
    .input(z.object({ search: z.string().max(200).optional() }).optional())
    .query(({ ctx, input }) => listUsersForOperator(ctx.core, { search: input?.search })),
  /** Grants or revokes the operator role of another user (audited; the last operator stays). */
  setOperatorRole: operatorProcedure
    .input(z.object({ user: z.string().min(1), isOperator: z.boolean() }))
    .mutation(({ ctx, input }) => setOperatorRole(ctx.core, input)),

  // Price catalogue: cards, the "why this hint" explainer, unpriced models and their re-pricing.
  listPriceCards: operatorProcedure
    .input((raw) => (raw ?? {}) as z.input<typeof listPriceCardsInput>)
    .query(({ ctx, input }) => listPriceCards(ctx.core, input)),
  getPriceCard: operatorProcedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => getPriceCard(ctx.core, input.id)),
  createPriceCard: operatorProcedure
    .input((raw) => raw as PriceCardFieldsInput)
    .mutation(({ ctx, input }) => createPriceCard(ctx.core, input)),
  updatePriceCard: operatorProcedure
    .input((raw) => raw as { id: string; expectedUpdatedAt: string; card: PriceCardFieldsInput })
    .mutation(({ ctx, input }) => updatePriceCard(ctx.core, input)),
  explainPriceHints: operatorProcedure
    .input((raw) => raw as z.input<typeof explainPriceHintsInput>)
    .query(({ ctx, input }) => explainPriceHints(ctx.core, input)),
  listUnpricedModels: operatorProcedure
    .input(z.object({ search: z.string().max(200).optional() }).optional())
    .query(({ ctx, input }) => listUnpricedModels(ctx.core, input ?? {})),
  startRepricing: operatorProcedure
    .input((raw) => raw as z.input<typeof startRepricingInput>)
    .mutation(({ ctx, input }) => startRepricing(ctx.core, input)),
  listRepriceRuns: operatorProcedure.query(({ ctx }) => listRepriceRuns(ctx.core)),
  getRepriceRun: operatorProcedure
    .input(z.object({ id: z.string().min(1) }))
    .query(({ ctx, input }) => getRepriceRun(ctx.core, input.id)),
  /** "Why this value" for any project of any organization. */
  projectEntitlements: operatorProcedure
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => explainProjectEntitlements(ctx.core, input.projectId)),
});
