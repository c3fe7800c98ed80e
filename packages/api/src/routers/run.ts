import {
  getAgentRun,
  listAgentRuns,
  listAgentRunsInput,
  resumeAgentRun,
  resumeAgentRunInput,
  stopAgentRun,
  stopAgentRunInput,
} from "@breakwater/core";
import { z } from "zod";
import { orgProcedure, router } from "../init";

export const runRouter = router({
  /** A keyset page of the project's agent runs, most recently active first; anyone in the organization. */
  list: orgProcedure("viewer")
    .input(listAgentRunsInput)
    .query(({ ctx, input }) => listAgentRuns(ctx.core, input)),

  /** One run (the `?run=` deep link). */
  get: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1), agentRunId: z.string().min(1).max(256) }))
    .query(({ ctx, input }) => getAgentRun(ctx.core, input)),

  /** Stops a run: its next budget check answers run_stopped with the terminate directive; members and up. */
  stop: orgProcedure("member")
    .input(stopAgentRunInput)
    .mutation(({ ctx, input }) => stopAgentRun(ctx.core, input)),

  /** Lifts a stop; members and up. */
  resume: orgProcedure("member")
    .input(resumeAgentRunInput)
    .mutation(({ ctx, input }) => resumeAgentRun(ctx.core, input)),
});
