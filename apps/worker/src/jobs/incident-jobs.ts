import { type Deps, evaluateProviderIncident, sweepProviderIncidents } from "@breakwater/core";
import { parsePayload } from "@breakwater/queue";
import type { Job } from "bullmq";

/** Evaluates one provider incident when its minimum duration or quiet period runs out. */
export function incidentEvaluate(deps: Deps) {
  return async (job: Job) => {
    const { projectId, provider } = parsePayload("incident-evaluate", job.data);
    const r = await evaluateProviderIncident(deps, { projectId, provider });
    return { change: r.change, status: r.status };
  };
}

/** Evaluates every unresolved incident: resolves those whose instances recovered or went stale. */
export function incidentSweep(deps: Deps) {
  return async (job: Job) => {
    parsePayload("incident-sweep", job.data);
    return sweepProviderIncidents(deps);
  };
}
