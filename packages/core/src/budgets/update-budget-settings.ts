import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { newId } from "../ids";
import { projectInTenant } from "../runs/stop-agent-run";
import {
  type BudgetSettingsDto,
  getBudgetSettings,
  publishBudgetChange,
  thresholdPercents,
  usdAmount,
} from "./budget-settings";
import { PERIODS } from "./windows";

export const updateBudgetSettingsInput = z.object({
  projectId: z.string().min(1),
  mode: z.enum(["alert_only", "hard_deny"]),
  /** null = no limit for that period; at least one period keeps a limit. */
  limits: z
    .object({ daily: usdAmount.nullable(), weekly: usdAmount.nullable(), monthly: usdAmount.nullable() })
    .refine((l) => l.daily !== null || l.weekly !== null || l.monthly !== null, {
      message: "Keep at least one period limit (daily, weekly or monthly)",
    }),
  thresholds: thresholdPercents,
  /** Spend cap per agent run (hard_deny projects deny a run past it); null = none. */
  runSpendCapUsd: usdAmount.nullable(),
});
export type UpdateBudgetSettingsInput = z.input<typeof updateBudgetSettingsInput>;

/**
 * Replaces a project's mode, period limits, threshold alerts and run spend cap in one transaction
 * with its audit row (before/after), then invalidates every replica's budget runtime so the next
 * check judges by the new rules. Member role. Invalid input is refused whole (INVALID with per-field
 * messages): nothing is written.
 */
export async function updateBudgetSettings(
  ctx: Ctx,
  raw: UpdateBudgetSettingsInput,
): Promise<BudgetSettingsDto> {
  const input = updateBudgetSettingsInput.parse(raw);
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  const before = await getBudgetSettings(ctx, { projectId: project.id });
  await ctx.db.$transaction(async (tx) => {
    await tx.project.update({
      where: { id: project.id },
      data: {
        mode: input.mode,
        alertThresholds: input.thresholds,
        runSpendCapUsd: input.runSpendCapUsd === null ? null : input.runSpendCapUsd.toString(),
      },
    });
    for (const period of PERIODS) {
      const limit = input.limits[period];
      if (limit === null) {
        await tx.budgetLimit.deleteMany({ where: { projectId: project.id, period } });
      } else {
        await tx.budgetLimit.upsert({
          where: { projectId_period: { projectId: project.id, period } },
          create: { id: newId("lim"), projectId: project.id, period, limitUsd: limit.toString() },
          update: { limitUsd: limit.toString() },
        });
      }
    }
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "budget_settings.update",
      targetType: "project",
      targetId: project.id,
      before: {
        mode: before.mode,
        limits: before.limits,
        thresholds: before.thresholds,
        runSpendCapUsd: before.runSpendCapUsd,
      },
      after: {
        mode: input.mode,
        limits: input.limits,
        thresholds: input.thresholds,
        runSpendCapUsd: input.runSpendCapUsd,
      },
    });
  });
  await publishBudgetChange(ctx, project.id);
  return getBudgetSettings(ctx, { projectId: project.id });
}
