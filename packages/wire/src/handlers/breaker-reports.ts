import { isDomainError } from "@breakwater/core";
import { notFound, rawJson, serviceUnavailable } from "../errors";
import { fastBreakerReport } from "../schemas/fast-breaker-report";
import { type BreakerReportInput, breakerReport } from "../schemas/requests";
import { BODY_LIMITS, gate, type Handler, validate } from "./gate";

const ACCEPTED = '{"accepted":true}';

/**
 * POST /api/v1/projects/{project_id}/providers/breaker-reports (spec §4): one SDK's circuit state.
 * A heartbeat (unchanged state) is settled in Redis and its last-seen time group-committed; a
 * change goes through the transactional path before the 202 (see BreakerReportIntake).
 */
export const breakerReports: Handler = async (ctx, req, [projectId]) => {
  const { key, body } = await gate(ctx, req, { limit: BODY_LIMITS.breaker });
  // Another tenant's project (or any other id) is indistinguishable from a missing one.
  if (projectId !== key.projectId) return notFound("Project not found");
  const input: BreakerReportInput = fastBreakerReport(body) ?? validate(breakerReport, body);
  try {
    await ctx.breakers.report({
      projectId: key.projectId,
      provider: input.provider,
      state: input.state,
      failureCount: input.failure_count,
      successCount: input.success_count,
      reportedAt: input.reported_at.date,
      sdkInstanceId: input.sdk_instance_id,
    });
  } catch (err) {
    // The project's Redis (its cluster master) cannot answer: a fast, retryable 503 — the generic
    // body, not the budget check's.
    if (isDomainError(err) && err.code === "BUDGET_UNAVAILABLE") {
      ctx.metrics?.backendError("redis");
      return serviceUnavailable();
    }
    throw err;
  }
  return rawJson(202, ACCEPTED);
};
