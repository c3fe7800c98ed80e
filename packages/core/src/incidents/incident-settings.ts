import { z } from "zod";
import { recordAudit } from "../audit/record-audit";
import { type Ctx, requireRole } from "../context";
import { invalid } from "../errors";
import { projectInTenant } from "../runs/stop-agent-run";

export interface IncidentSettingsDto {
  projectId: string;
  /** % of live instances Down that opens an incident; null = 1 instance with ≤ 2 live, else 25 %. */
  thresholdPct: number | null;
  minDurationSeconds: number;
  quietSeconds: number;
}

export const getIncidentSettingsInput = z.object({ projectId: z.string().min(1) });

/** A project's incident settings. Viewer role. */
export async function getIncidentSettings(
  ctx: Ctx,
  raw: z.input<typeof getIncidentSettingsInput>,
): Promise<IncidentSettingsDto> {
  const { projectId } = getIncidentSettingsInput.parse(raw);
  const p = await projectInTenant(ctx, projectId);
  requireRole(ctx, "viewer");
  return {
    projectId: p.id,
    thresholdPct: p.incidentThresholdPct,
    minDurationSeconds: p.incidentMinDurationSecs,
    quietSeconds: p.incidentQuietSecs,
  };
}

const DAY_S = 86_400;

export const updateIncidentSettingsInput = z.object({
  projectId: z.string().min(1),
  thresholdPct: z
    .number({ error: "Enter a percentage from 1 to 100, or leave it empty for the default" })
    .int("Use a whole percentage")
    .min(1, "The threshold is a share of live instances from 1 to 100 %")
    .max(100, "The threshold is a share of live instances from 1 to 100 %")
    .nullable(),
  minDurationSeconds: z
    .number({ error: "Enter a number of seconds" })
    .int("Use whole seconds")
    .min(0, "The minimum duration cannot be negative")
    .max(DAY_S, "The minimum duration is at most a day (86400 s)"),
  quietSeconds: z
    .number({ error: "Enter a number of seconds" })
    .int("Use whole seconds")
    .min(0, "The quiet period cannot be negative")
    .max(DAY_S, "The quiet period is at most a day (86400 s)"),
});
export type UpdateIncidentSettingsInput = z.input<typeof updateIncidentSettingsInput>;

/**
 * Sets a project's incident threshold, minimum duration and quiet period, with an audit row.
 * Member role. Invalid input is refused whole with per-field messages; nothing is written. The
 * next evaluation of each provider applies them.
 */
export async function updateIncidentSettings(
  ctx: Ctx,
  raw: UpdateIncidentSettingsInput,
): Promise<IncidentSettingsDto> {
  const parsed = updateIncidentSettingsInput.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues)
      fieldErrors[issue.path.map(String).join(".") || "_"] ??= issue.message;
    throw invalid(Object.values(fieldErrors)[0] ?? "Invalid incident settings", { fieldErrors });
  }
  const input = parsed.data;
  const project = await projectInTenant(ctx, input.projectId);
  requireRole(ctx, "member");
  const before = {
    thresholdPct: project.incidentThresholdPct,
    minDurationSeconds: project.incidentMinDurationSecs,
    quietSeconds: project.incidentQuietSecs,
  };
  const after = {
    thresholdPct: input.thresholdPct,
    minDurationSeconds: input.minDurationSeconds,
    quietSeconds: input.quietSeconds,
  };
  await ctx.db.$transaction(async (tx) => {
    await tx.project.update({
      where: { id: project.id },
      data: {
        incidentThresholdPct: input.thresholdPct,
        incidentMinDurationSecs: input.minDurationSeconds,
        incidentQuietSecs: input.quietSeconds,
      },
    });
    await recordAudit(tx, ctx.actor, {
      organizationId: project.organizationId,
      action: "project.incident_settings",
      targetType: "project",
      targetId: project.id,
      before,
      after,
    });
  });
  return { projectId: project.id, ...after };
}
