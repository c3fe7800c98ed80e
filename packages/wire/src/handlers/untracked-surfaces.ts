import { observationKey, recordUntrackedSurfaces } from "@breakwater/core";
import { detail, json, type ValidationItem, validationFailed, zodIssuesToItems } from "../errors";
import {
  UNTRACKED_MAX_REPORTS,
  type UntrackedSurfaceReportInput,
  untrackedSurfaceReport,
} from "../schemas/requests";
import { BODY_LIMITS, gate, type Handler } from "./gate";

/** POST /api/v1/untracked-surfaces (spec §7): SDK calls it could not meter, once per report_id. */
export const untrackedSurfaces: Handler = async (ctx, req) => {
  const { key, body } = await gate(ctx, req, { limit: BODY_LIMITS.untracked });
  if (!Array.isArray(body)) {
    return validationFailed([{ loc: ["body"], msg: "Input should be a valid list", type: "list_type" }]);
  }
  if (body.length > UNTRACKED_MAX_REPORTS) {
    return detail(400, `untracked surface batches may contain at most ${UNTRACKED_MAX_REPORTS} reports`);
  }
  const reports: UntrackedSurfaceReportInput[] = [];
  const issues: ValidationItem[] = [];
  for (let i = 0; i < body.length; i++) {
    const parsed = untrackedSurfaceReport.safeParse(body[i]);
    if (parsed.success) reports.push(parsed.data);
    else issues.push(...zodIssuesToItems(parsed.error.issues, body[i], [i]));
  }
  if (issues.length > 0) return validationFailed(issues.slice(0, 200));
  const items = reports.map((r) => ({
    provider: r.provider,
    clientShape: r.client_shape,
    mode: r.mode,
    surface: r.surface,
    ruleKind: r.rule_kind,
    capabilityScope: r.capability_scope ?? null,
    posture: r.posture,
    occurrences: r.occurrences,
    firstSeenAt: r.first_seen_at.iso,
    lastSeenAt: r.last_seen_at.iso,
    sdkInstanceId: r.sdk_instance_id,
    reportId: r.report_id,
  }));
  const seen = new Set<string>();
  for (const item of items) {
    const k = observationKey(item);
    if (seen.has(k)) return detail(400, "Batch repeats an observation key");
    seen.add(k);
  }
  await recordUntrackedSurfaces(ctx.fleet, key.projectId, items);
  return json(202, { accepted: reports.length });
};
