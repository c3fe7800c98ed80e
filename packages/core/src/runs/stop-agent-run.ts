import type { RedisClient } from "@breakwater/queue";
import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { invalidateProjectBudget } from "../budgets/budget-runtime";
import type { InvalidationBus } from "../cache/invalidating-cache";
import { type Ctx, requireRole } from "../context";
import { notFound } from "../errors";

export const stopAgentRunInput = z.object({
  projectId: z.string().min(1),
  agentRunId: z.string().min(1).max(256),
  /** Sent to the SDK verbatim in run_control.reason (1..64 characters). */
  reason: z.string().trim().min(1).max(64).default("manual_kill"),
});
export type StopAgentRunInput = z.input<typeof stopAgentRunInput>;

export interface AgentRunControlDto {
  projectId: string;
  agentRunId: string;
  stopped: boolean;
  stopReason: string | null;
  stoppedAt: string | null;
}

/** Callers that can also reach the other replicas' caches. */
export type RunCtx = Ctx & { bus?: InvalidationBus; redis?: RedisClient };

/** The project of the caller's tenant, or NOT_FOUND (never FORBIDDEN for another tenant's project). */
export async function projectInTenant(ctx: Ctx, projectId: string) {
  const project = await ctx.db.project.findUnique({ where: { id: projectId } });
  if (
    !project ||
    project.archivedAt ||
    (ctx.organizationId && project.organizationId !== ctx.organizationId)
  ) {
    throw notFound("Project");
  }
  return project;
}

/**
 * Stops an agent run: the next budget check for that run (on any replica) answers `run_stopped`
 * with `mode:"hard_deny"` and the terminate directive carrying `reason`. Works for runs Breakwater
 * has not seen yet. Requires the member role; writes an audit row in the same transaction.
 * Stopping a stopped run keeps its first stop (idempotent).
 */
export async function stopAgentRun(ctx: RunCtx, raw: StopAgentRunInput): Promise<AgentRunControlDto> {
  const input = stopAgentRunInput.parse(raw);
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  const stoppedById = ctx.actor.type === "user" ? ctx.actor.userId : null;
  const row = await ctx.db.$transaction(async (tx) => {
    const before = await tx.agentRun.findUnique({
      where: { projectId_agentRunId: { projectId: project.id, agentRunId: input.agentRunId } },
    });
    if (before?.stoppedAt) return before;
    const now = new Date();
    const updated = await tx.agentRun.upsert({
      where: { projectId_agentRunId: { projectId: project.id, agentRunId: input.agentRunId } },
      create: {
        projectId: project.id,
        agentRunId: input.agentRunId,
        firstSeenAt: now,
        lastSeenAt: now,
        stoppedAt: now,
        stopReason: input.reason,
        stoppedById,
      },
      update: { stoppedAt: now, stopReason: input.reason, stoppedById },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "agent_run.stop",
      targetType: "agent_run",
      targetId: `${project.id}/${input.agentRunId}`,
      before: { stopped: false },
      after: { stopped: true, reason: input.reason },
    });
    return updated;
  });
  await invalidateProjectBudget(ctx, project.id);
  return toRunControlDto(row);
}

export function toRunControlDto(row: {
  projectId: string;
  agentRunId: string;
  stoppedAt: Date | null;
  stopReason: string | null;
}): AgentRunControlDto {
  return {
    projectId: row.projectId,
    agentRunId: row.agentRunId,
    stopped: row.stoppedAt !== null,
    stopReason: row.stopReason,
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
  };
}
