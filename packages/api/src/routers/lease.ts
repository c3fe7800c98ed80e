import { listProjectLeases } from "@breakwater/core";
import { z } from "zod";
import { orgProcedure, router } from "../init";

export const leaseRouter = router({
  /** A project's live run leases (from Redis), for anyone in the organization. */
  listActive: orgProcedure("viewer")
    .input(z.object({ projectId: z.string().min(1) }))
    .query(({ ctx, input }) => listProjectLeases(ctx.core, input.projectId)),
});
