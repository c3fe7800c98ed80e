import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";
import { projectInTenant } from "../runs/stop-agent-run";
import { publishBudgetChange, toTagRuleDto } from "./budget-settings";
import { ruleAudit } from "./save-tag-rule";

export const deleteTagRuleInput = z.object({
  projectId: z.string().min(1),
  ruleId: z.string().min(1),
});

/** Deletes a tag rule with its audit row, then invalidates every replica's budget runtime. Member role. */
export async function deleteTagRule(
  ctx: Ctx,
  raw: z.input<typeof deleteTagRuleInput>,
): Promise<{ deleted: true }> {
  const input = deleteTagRuleInput.parse(raw);
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  await ctx.db.$transaction(async (tx) => {
    const before = await tx.tagRule.findFirst({ where: { id: input.ruleId, projectId: project.id } });
    if (!before) throw notFound("Tag rule");
    await tx.tagRule.delete({ where: { id: before.id } });
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "tag_rule.delete",
      targetType: "tag_rule",
      targetId: before.id,
      before: ruleAudit(toTagRuleDto(before)),
    });
  });
  await publishBudgetChange(ctx, project.id);
  return { deleted: true };
}
