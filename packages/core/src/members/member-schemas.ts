import { z } from "zod";
import { ROLES } from "../context";

/** How long an invitation link stays valid. */
export const INVITATION_TTL_DAYS = 7;

export const roleInput = z.enum(ROLES, { message: "Choose a role: owner, admin, member or viewer" });

export const inviteMemberInput = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "Enter a valid email address" }).max(254, "Email is too long")),
  role: roleInput,
});
export type InviteMemberInput = z.input<typeof inviteMemberInput>;

export const changeMemberRoleInput = z.object({ memberId: z.string().min(1), role: roleInput });
export type ChangeMemberRoleInput = z.input<typeof changeMemberRoleInput>;

export const memberRefInput = z.object({ memberId: z.string().min(1) });
export const invitationRefInput = z.object({ invitationId: z.string().min(1) });

/** An accept link's token: 43 base64url characters (256 random bits). */
export const invitationTokenInput = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, "This invitation link is not valid"),
});
