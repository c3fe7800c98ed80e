import { recordBreakerReport } from "@breakwater/core";
import { notFound, rawJson } from "../errors";
import { type BreakerReportInput, breakerReport } from "../schemas/requests";
import { BODY_LIMITS, gate, type Handler, validate } from "./gate";

/** POST /api/v1/projects/{project_id}/providers/breaker-reports (spec §4): one SDK's circuit state. */
export const breakerReports: Handler = async (ctx, req, [projectId]) => {
  const { key, body } = await gate(ctx, req, { limit: BODY_LIMITS.breaker });
  // Another tenant's project (or any other id) is indistinguishable from a missing one.
  if (projectId !== key.projectId) return notFound("Project not found");
  const input: BreakerReportInput = validate(breakerReport, body);
  await recordBreakerReport(ctx.fleet, {
    projectId: key.projectId,
    provider: input.provider,
    state: input.state,
    failureCount: input.failure_count,
    successCount: input.success_count,
    reportedAt: input.reported_at.date,
    sdkInstanceId: input.sdk_instance_id,
  });
  return rawJson(202, '{"accepted":true}');
};
