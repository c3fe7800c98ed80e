import {
  changeMemberRole,
  changeMemberRoleInput,
  inviteMember,
  inviteMemberInput,
  listMembers,
  removeMember,
  requireRole,
  revokeInvitation,
} from "@breakwater/core";
import { pageQuery, paginate } from "../pagination";
import { createdInvitationResource, invitationResource, memberResource } from "../schemas";
import { route } from "./define";

/**
 * The organization's members and pending invitations. A write key acts as an admin: it invites,
 * changes roles and removes members below owner, as an admin in the dashboard does. An invitation
 * names the person who sent it: a key's invitations name the member who created the key.
 */
export const memberRoutes = [
  route({
    operationId: "listMembers",
    method: "GET",
    path: "/members",
    tag: "Members",
    summary: "List the organization's members with their role (owners first)",
    scope: "read",
    query: pageQuery,
    response: memberResource,
    list: true,
    handle: async ({ ctx, query }) => ({ body: paginate((await listMembers(ctx)).members, query) }),
  }),
  route({
    operationId: "changeMemberRole",
    method: "PATCH",
    path: "/members/{memberId}",
    tag: "Members",
    summary: "Change a member's role",
    description: "Only owners grant or take away the owner role, so a write key (an admin) cannot.",
    scope: "write",
    body: changeMemberRoleInput.pick({ role: true }),
    response: memberResource,
    handle: async ({ ctx, params, body }) => ({
      body: await changeMemberRole(ctx, { memberId: params.memberId!, role: body.role }),
    }),
  }),
  route({
    operationId: "removeMember",
    method: "DELETE",
    path: "/members/{memberId}",
    tag: "Members",
    summary: "Remove a member from the organization",
    scope: "write",
    status: 204,
    handle: async ({ ctx, params }) => {
      await removeMember(ctx, { memberId: params.memberId! });
      return {};
    },
  }),
  route({
    operationId: "listInvitations",
    method: "GET",
    path: "/invitations",
    tag: "Members",
    summary: "List pending invitations, newest first (admins only: a read key gets 403)",
    scope: "read",
    query: pageQuery,
    response: invitationResource,
    list: true,
    handle: async ({ ctx, query }) => {
      // listMembers leaves invitations out below admin (the dashboard's rule); here that is a 403.
      requireRole(ctx, "admin");
      return { body: paginate((await listMembers(ctx)).invitations, query) };
    },
  }),
  route({
    operationId: "createInvitation",
    method: "POST",
    path: "/invitations",
    tag: "Members",
    summary: "Invite an email address with a role; the answer carries the accept link, once",
    description:
      "As the dashboard's invite: the invitation names the member who created this key as its sender, and the audit log shows the key. 409 when the key's creator is no longer a member, or the address is already a member or invited. Only owners invite owners, so a write key (an admin) cannot.",
    scope: "write",
    body: inviteMemberInput,
    response: createdInvitationResource,
    status: 201,
    handle: async ({ ctx, body }) => {
      const { invitation, token } = await inviteMember(ctx, body);
      const url = new URL(`/invite/${token}`, ctx.config.PUBLIC_URL).toString();
      return { body: { ...invitation, url } };
    },
  }),
  route({
    operationId: "revokeInvitation",
    method: "DELETE",
    path: "/invitations/{invitationId}",
    tag: "Members",
    summary: "Revoke a pending invitation (its link stops working)",
    scope: "write",
    status: 204,
    handle: async ({ ctx, params }) => {
      await revokeInvitation(ctx, { invitationId: params.invitationId! });
      return {};
    },
  }),
];
