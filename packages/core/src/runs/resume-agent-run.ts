import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { invalidateProjectBudget } from "../budgets/budget-runtime";
import { requireRole } from "../context";
import { type AgentRunControlDto, projectInTenant, type RunCtx, toRunControlDto } from "./stop-agent-run";

export const resumeAgentRunInput = z.object({
  projectId: z.string().min(1),
  agentRunId: z.string().min(1).max(256),
});
export type ResumeAgentRunInput = z.input<typeof resumeAgentRunInput>;

/**
 * Lifts a run stop: the next check for the run is judged on budget again (no run_control).
 * Requires the member role; audited in the same transaction. Resuming a running run is a no-op.
 */
export async function resumeAgentRun(ctx: RunCtx, raw: ResumeAgentRunInput): Promise<AgentRunControlDto> {
  const input = resumeAgentRunInput.parse(raw);
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  const where = { projectId_agentRunId: { projectId: project.id, agentRunId: input.agentRunId } };
  const row = await ctx.db.$transaction(async (tx) => {
    const before = await tx.agentRun.findUnique({ where });
    if (!before?.stoppedAt) return before;
    const updated = await tx.agentRun.update({
      where,
      data: { stoppedAt: null, stopReason: null, stoppedById: null },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "agent_run.resume",
      targetType: "agent_run",
      targetId: `${project.id}/${input.agentRunId}`,
      before: { stopped: true, reason: before.stopReason },
      after: { stopped: false },
    });
    return updated;
  });
  await invalidateProjectBudget(ctx, project.id);
  return row
    ? toRunControlDto(row)
    : {
        projectId: project.id,
        agentRunId: input.agentRunId,
        stopped: false,
        stopReason: null,
        stoppedAt: null,
      };
}
