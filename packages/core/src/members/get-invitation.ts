import type { Deps, Role } from "../context";
import { hashInvitationToken } from "./invitation-token";
import { invitationTokenInput } from "./member-schemas";

export type InvitationState = "pending" | "expired" | "revoked" | "accepted";

export interface InvitationLookupDto {
  state: InvitationState;
  organizationName: string;
  email: string;
  role: Role;
  inviterName: string;
  expiresAt: string;
}

/** The state of an invitation: a revoked or used one stays so even after its expiry. */
export function invitationState(inv: { status: string; expiresAt: Date }, now: Date): InvitationState {
  if (inv.status === "accepted") return "accepted";
  if (inv.status !== "pending") return "revoked";
  return inv.expiresAt <= now ? "expired" : "pending";
}

/**
 * What an accept link points at — organization, invited address, role, state — or null for a
 * token that matches nothing (malformed, mistyped, never issued). Knowing the token is the only
 * credential: it is 256 random bits, looked up by its hash.
 */
export async function getInvitationByToken(
  deps: Pick<Deps, "db">,
  raw: { token: string },
  now = new Date(),
): Promise<InvitationLookupDto | null> {
  const parsed = invitationTokenInput.safeParse(raw);
  if (!parsed.success) return null;
  const inv = await deps.db.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(parsed.data.token) },
    include: { organization: { select: { name: true } }, user: { select: { name: true } } },
  });
  if (!inv) return null;
  return {
    state: invitationState(inv, now),
    organizationName: inv.organization.name,
    email: inv.email,
    role: (inv.role ?? "member") as Role,
    inviterName: inv.user.name,
    expiresAt: inv.expiresAt.toISOString(),
  };
}

/** Whether `email` has a pending, unexpired invitation to any organization (sign-up by invitation). */
export async function hasPendingInvitation(
  deps: Pick<Deps, "db">,
  email: string,
  now = new Date(),
): Promise<boolean> {
  const found = await deps.db.invitation.findFirst({
    where: {
      email: { equals: email.trim(), mode: "insensitive" },
      status: "pending",
      expiresAt: { gt: now },
    },
    select: { id: true },
  });
  return found !== null;
}
