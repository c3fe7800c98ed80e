import { z } from "zod";
import type { Ctx } from "../context";
import { requireRole } from "../context";
import { notFound } from "../errors";
import { projectInTenant } from "./stop-agent-run";

export const listAgentRunsInput = z.object({
  projectId: z.string().min(1),
  /** Opaque keyset cursor from the previous page's `nextCursor`. */
  cursor: z.string().max(600).nullish(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type ListAgentRunsInput = z.input<typeof listAgentRunsInput>;

export interface AgentRunDto {
  agentRunId: string;
  name: string | null;
  parentAgentRunId: string | null;
  isAuto: boolean;
  firstSeenAt: string;
  lastSeenAt: string;
  callCount: number;
  costUsd: number;
  avoidedCostUsd: number;
  unpricedCalls: number;
  velocityFlags: string[];
  stopped: boolean;
  stopReason: string | null;
  stoppedAt: string | null;
}

type RunRow = {
  agentRunId: string;
  name: string | null;
  parentAgentRunId: string | null;
  isAuto: boolean;
  firstSeenAt: Date;
  lastSeenAt: Date;
  callCount: number;
  costUsd: { toString(): string };
  avoidedCostUsd: { toString(): string };
  unpricedCalls: number;
  velocityFlags: string[];
  stoppedAt: Date | null;
  stopReason: string | null;
};

export function toAgentRunDto(r: RunRow): AgentRunDto {
  return {
    agentRunId: r.agentRunId,
    name: r.name,
    parentAgentRunId: r.parentAgentRunId,
    isAuto: r.isAuto,
    firstSeenAt: r.firstSeenAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    callCount: r.callCount,
    costUsd: Number(r.costUsd.toString()),
    avoidedCostUsd: Number(r.avoidedCostUsd.toString()),
    unpricedCalls: r.unpricedCalls,
    velocityFlags: r.velocityFlags,
    stopped: r.stoppedAt !== null,
    stopReason: r.stopReason,
    stoppedAt: r.stoppedAt?.toISOString() ?? null,
  };
}

function encodeCursor(r: { lastSeenAt: Date; agentRunId: string }): string {
  return Buffer.from(JSON.stringify([r.lastSeenAt.toISOString(), r.agentRunId])).toString("base64url");
}

function decodeCursor(c: string): { lastSeenAt: Date; agentRunId: string } | null {
  try {
    const [at, id] = JSON.parse(Buffer.from(c, "base64url").toString("utf8")) as [string, string];
    const lastSeenAt = new Date(at);
    if (Number.isNaN(lastSeenAt.getTime()) || typeof id !== "string") return null;
    return { lastSeenAt, agentRunId: id };
  } catch {
    return null;
  }
}

/**
 * A page of the project's agent runs, most recently active first, keyset-paged on
 * (last_seen_at, agent_run_id) so paging stays fast and stable while runs keep reporting.
 * A malformed cursor starts from the top. Any role in the organization.
 */
export async function listAgentRuns(
  ctx: Ctx,
  raw: ListAgentRunsInput,
): Promise<{ runs: AgentRunDto[]; nextCursor: string | null }> {
  const input = listAgentRunsInput.parse(raw);
  requireRole(ctx, "viewer");
  const project = await projectInTenant(ctx, input.projectId);
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const rows = await ctx.db.agentRun.findMany({
    where: {
      projectId: project.id,
      ...(after
        ? {
            OR: [
              { lastSeenAt: { lt: after.lastSeenAt } },
              { lastSeenAt: after.lastSeenAt, agentRunId: { lt: after.agentRunId } },
            ],
          }
        : {}),
    },
    orderBy: [{ lastSeenAt: "desc" }, { agentRunId: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    runs: page.map(toAgentRunDto),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null,
  };
}

/** One agent run of the project (the `?run=` deep link); NOT_FOUND when the project has no such run. */
export async function getAgentRun(
  ctx: Ctx,
  input: { projectId: string; agentRunId: string },
): Promise<AgentRunDto> {
  requireRole(ctx, "viewer");
  const project = await projectInTenant(ctx, input.projectId);
  const row = await ctx.db.agentRun.findUnique({
    where: { projectId_agentRunId: { projectId: project.id, agentRunId: input.agentRunId } },
  });
  if (!row) throw notFound("Agent run");
  return toAgentRunDto(row);
}
