import {
  deleteTagRule,
  deleteTagRuleInput,
  getBudgetSettings,
  saveTagRule,
  saveTagRuleInput,
  updateBudgetSettings,
  updateBudgetSettingsInput,
} from "@breakwater/core";
import { z } from "zod";
import { orgProcedure, router } from "../init";

export const budgetRouter = router({
  /** A project's mode, period limits, threshold alerts, run cap and tag rules; anyone in the organization. */
  settings: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => getBudgetSettings(ctx.core, input)),

  /** Replaces mode, limits, thresholds and run cap at once; members and up. */
  update: orgProcedure("member")
    .input(updateBudgetSettingsInput)
    .mutation(({ ctx, input }) => updateBudgetSettings(ctx.core, input)),

  /** Creates (no ruleId) or replaces a tag rule; members and up. */
  saveTagRule: orgProcedure("member")
    .input(saveTagRuleInput)
    .mutation(({ ctx, input }) => saveTagRule(ctx.core, input)),

  /** Deletes a tag rule; members and up. */
  deleteTagRule: orgProcedure("member")
    .input(deleteTagRuleInput)
    .mutation(({ ctx, input }) => deleteTagRule(ctx.core, input)),
});
