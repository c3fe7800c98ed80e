import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { preconditionFailed } from "../errors";
import { newId } from "../ids";
import { projectInTenant } from "../runs/stop-agent-run";
import {
  type BudgetRules,
  type BudgetSettingsDto,
  budgetRulesEtag,
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
 * messages): nothing is written. With `ifMatch` (an entity tag from `budgetRulesEtag`) the write
 * is conditional: the project row is locked and the rules compared under the lock, so of two
 * writers holding the same tag exactly one succeeds and the other gets PRECONDITION_FAILED.
 */
export async function updateBudgetSettings(
  ctx: Ctx,
  raw: UpdateBudgetSettingsInput,
  opts: { ifMatch?: string } = {},
): Promise<BudgetSettingsDto> {
  const input = updateBudgetSettingsInput.parse(raw);
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  await ctx.db.$transaction(async (tx) => {
    // Writers of one project's rules queue here, so `before` (and the If-Match comparison) is
    // what this write replaces, not what another writer is replacing at the same moment.
    await tx.$queryRaw`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`;
    const row = await tx.project.findUniqueOrThrow({ where: { id: project.id } });
    const stored = await tx.budgetLimit.findMany({ where: { projectId: project.id } });
    const before: BudgetRules = {
      mode: row.mode,
      limits: { daily: null, weekly: null, monthly: null },
      thresholds: [...row.alertThresholds].sort((a, b) => a - b),
      runSpendCapUsd: row.runSpendCapUsd === null ? null : Number(row.runSpendCapUsd.toString()),
    };
    for (const l of stored) before.limits[l.period] = Number(l.limitUsd.toString());
    if (opts.ifMatch !== undefined && opts.ifMatch !== budgetRulesEtag(before)) {
      throw preconditionFailed("The budget");
    }
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
