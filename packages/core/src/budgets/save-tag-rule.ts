import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";
import { newId } from "../ids";
import { projectInTenant } from "../runs/stop-agent-run";
import {
  publishBudgetChange,
  type TagRuleDto,
  tagSelector,
  toTagRuleDto,
  usdAmount,
} from "./budget-settings";

export const saveTagRuleInput = z.object({
  projectId: z.string().min(1),
  /** Absent: a new rule; present: that rule is replaced. */
  ruleId: z.string().min(1).optional(),
  name: z.string().trim().min(1, "Name is required").max(100, "Name is at most 100 characters"),
  selector: tagSelector,
  period: z.enum(["daily", "weekly", "monthly"]),
  limitUsd: usdAmount,
  enabled: z.boolean().default(true),
});
export type SaveTagRuleInput = z.input<typeof saveTagRuleInput>;

/**
 * Creates or replaces a tag rule (checks whose tags contain every selector pair are limited to
 * `limitUsd` per period) in one transaction with its audit row, then invalidates every replica's
 * budget runtime. An edited rule gets fresh counters (its runtime ref carries its version). Member role.
 */
export async function saveTagRule(ctx: Ctx, raw: SaveTagRuleInput): Promise<TagRuleDto> {
  const input = saveTagRuleInput.parse(raw);
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  const data = {
    name: input.name,
    selector: input.selector,
    period: input.period,
    limitUsd: input.limitUsd.toString(),
    enabled: input.enabled,
  };
  const saved = await ctx.db.$transaction(async (tx) => {
    const before = input.ruleId
      ? await tx.tagRule.findFirst({ where: { id: input.ruleId, projectId: project.id } })
      : null;
    if (input.ruleId && !before) throw notFound("Tag rule");
    const row = before
      ? await tx.tagRule.update({ where: { id: before.id }, data })
      : await tx.tagRule.create({ data: { id: newId("tagr"), projectId: project.id, ...data } });
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: before ? "tag_rule.update" : "tag_rule.create",
      targetType: "tag_rule",
      targetId: row.id,
      before: before ? ruleAudit(toTagRuleDto(before)) : undefined,
      after: ruleAudit(toTagRuleDto(row)),
    });
    return row;
  });
  await publishBudgetChange(ctx, project.id);
  return toTagRuleDto(saved);
}

/** The audited fields of a tag rule. */
export function ruleAudit(r: TagRuleDto) {
  return { name: r.name, selector: r.selector, period: r.period, limitUsd: r.limitUsd, enabled: r.enabled };
}
