import { listAuditEvents, listAuditEventsInput, listAuditKinds, listMembers } from "@breakwater/core";
import { orgProcedure, router } from "../init";

/** The organization's audit log: admins and owners only (FORBIDDEN below). */
export const auditRouter = router({
  list: orgProcedure("admin")
    .input(listAuditEventsInput)
    .query(({ ctx, input }) => listAuditEvents(ctx.core, input)),

  /** What the filters offer: the kinds present in the log, and the organization's members as actors. */
  filters: orgProcedure("admin").query(async ({ ctx }) => {
    const [kinds, { members }] = await Promise.all([listAuditKinds(ctx.core), listMembers(ctx.core)]);
    return { kinds, actors: members.map((m) => ({ id: m.userId, name: m.name, email: m.email })) };
  }),
});
