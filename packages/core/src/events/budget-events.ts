import { z } from "zod";

const instant = z.iso.datetime({ offset: false }).describe("RFC 3339 UTC timestamp");

/** data of budget_threshold_crossed: a project's spend in one period window reached a threshold. */
export const budgetThresholdData = z.object({
  event_id: z
    .string()
    .regex(/^evt_[0-9a-f]{24}$/)
    .describe("Unique per event; equal to the webhook-id header"),
  project_id: z.string().regex(/^proj_[0-9a-f]{24}$/),
  project_name: z.string(),
  period: z
    .enum(["daily", "weekly", "monthly"])
    .describe("The budget period whose window crossed the threshold"),
  window_start: instant.describe("Start of the UTC window (inclusive)"),
  window_end: instant.describe("End of the UTC window (exclusive)"),
  threshold_percent: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .describe("The threshold that was reached, in % of the limit"),
  limit_usd: z.number().min(0).describe("The period limit when the threshold was reached"),
  spent_usd: z.number().min(0).describe("Spend recorded in the window when the threshold was reached"),
  mode: z.enum(["alert_only", "hard_deny"]).describe("The project's budget mode"),
  dashboard_url: z.string().url().describe("The project's settings page in the Breakwater dashboard"),
});

export const budgetThresholdEvent = z.object({
  type: z.literal("budget_threshold_crossed"),
  timestamp: instant.describe("When Breakwater created the event"),
  data: budgetThresholdData,
});

export type BudgetThresholdEvent = z.infer<typeof budgetThresholdEvent>;

/** A realistic budget_threshold_crossed payload, for the catalogue page, the docs and test sends. */
export const BUDGET_THRESHOLD_SAMPLE: BudgetThresholdEvent = {
  type: "budget_threshold_crossed",
  timestamp: "2026-11-30T16:41:08.204Z",
  data: {
    event_id: "evt_019ad7b1c2d3e4f5a6b7c8d9",
    project_id: "proj_019ad5f0c1d2e3f4a5b6c7d8",
    project_name: "checkout-api",
    period: "monthly",
    window_start: "2026-11-01T00:00:00.000Z",
    window_end: "2026-12-01T00:00:00.000Z",
    threshold_percent: 80,
    limit_usd: 500,
    spent_usd: 401.27,
    mode: "hard_deny",
    dashboard_url: "https://breakwater.example.com/projects/proj_019ad5f0c1d2e3f4a5b6c7d8/settings",
  },
};
