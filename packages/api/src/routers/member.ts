import {
  acceptInvitation,
  changeMemberRole,
  changeMemberRoleInput,
  getInvitationByToken,
  invitationRefInput,
  invitationTokenInput,
  inviteMember,
  inviteMemberInput,
  listMembers,
  memberRefInput,
  removeMember,
  revokeInvitation,
} from "@breakwater/core";
import { z } from "zod";
import { authedProcedure, orgProcedure, publicProcedure, router } from "../init";
import { setActive } from "./organization";

/**
 * Members and invitations of the active organization. Every change goes through here (audited);
 * better-auth's own organization endpoints are closed to browsers (see createAuth).
 */
export const memberRouter = router({
  /** Members with their role; pending invitations for admins and owners. */
  list: orgProcedure("viewer").query(({ ctx }) => listMembers(ctx.core)),

  /** Invites an email with a role; the answer carries the accept link, shown once. */
  invite: orgProcedure("admin")
    .input(inviteMemberInput)
    .mutation(async ({ ctx, input }) => {
      const { invitation, token } = await inviteMember(ctx.core, input);
      const url = new URL(`/invite/${token}`, ctx.core.config.PUBLIC_URL).toString();
      return { invitation, url };
    }),

  revokeInvitation: orgProcedure("admin")
    .input(invitationRefInput)
    .mutation(({ ctx, input }) => revokeInvitation(ctx.core, input)),

  changeRole: orgProcedure("admin")
    .input(changeMemberRoleInput)
    .mutation(({ ctx, input }) => changeMemberRole(ctx.core, input)),

  remove: orgProcedure("admin")
    .input(memberRefInput)
    .mutation(({ ctx, input }) => removeMember(ctx.core, input)),
});

/** The accept link: readable signed out (the token is the credential), accepted signed in. */
export const invitationRouter = router({
  get: publicProcedure
    .input(z.object({ token: z.string().max(200) }))
    .query(({ ctx, input }) => getInvitationByToken(ctx.deps, input)),

  /** Joins the organization and makes it the session's active one. */
  accept: authedProcedure.input(invitationTokenInput).mutation(async ({ ctx, input }) => {
    const joined = await acceptInvitation(ctx.core, input);
    await setActive(ctx, joined.organizationId);
    return joined;
  }),
});
