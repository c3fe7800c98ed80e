import type { Metadata } from "next";
import Link from "next/link";
import { ButtonLink } from "@/components/ui/button";
import { AuthShell } from "@/features/auth/auth-shell";
import { roleLabel } from "@/features/members/format";
import { AcceptInvitationButton, InviteSignUpForm } from "@/features/members/invite-accept";
import { getCaller, getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Invitation" };

type Props = { params: Promise<{ token: string }> };

const link = "font-medium text-zinc-900 underline-offset-4 hover:underline";

/** Where an invitation could not be used: says why and what to do, nothing more. */
function Dead({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <AuthShell
      title={title}
      subtitle={subtitle}
      footer={
        <Link href="/" className={link}>
          Go to Breakwater
        </Link>
      }
    >
      <p className="text-[13px] text-zinc-600" data-testid="invite-state">
        Ask an admin or owner of the organization to invite you again.
      </p>
    </AuthShell>
  );
}

/**
 * An invitation's accept link. Signed out: create an account (or sign in) with the invited
 * address and join. Signed in as that address: a button joins. Anything else says why it cannot.
 */
export default async function InvitePage({ params }: Props) {
  const { token } = await params;
  const invitation = await (await getCaller()).invitation.get({ token });
  if (!invitation) {
    return (
      <Dead title="This invitation link is not valid" subtitle="Check that you copied the whole link." />
    );
  }
  const org = invitation.organizationName;
  if (invitation.state === "expired") {
    return (
      <Dead title="This invitation has expired" subtitle={`Invitations to ${org} are valid for 7 days.`} />
    );
  }
  if (invitation.state === "revoked") {
    return <Dead title="This invitation was revoked" subtitle={`An admin of ${org} withdrew it.`} />;
  }
  if (invitation.state === "accepted") {
    return (
      <Dead
        title="This invitation has already been used"
        subtitle={`Each link joins ${org} once. If it was you, sign in to get there.`}
      />
    );
  }

  const viewer = await getViewer();
  const title = `Join ${org}`;
  const subtitle = `${invitation.inviterName} invited ${invitation.email} to ${org} as ${roleLabel(invitation.role).toLowerCase()}.`;
  if (!viewer) {
    return (
      <AuthShell
        title={title}
        subtitle={subtitle}
        footer={
          <>
            Already have an account?{" "}
            <Link href={`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`} className={link}>
              Sign in to accept
            </Link>
          </>
        }
      >
        <InviteSignUpForm token={token} email={invitation.email} />
      </AuthShell>
    );
  }
  if (viewer.user.email.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <AuthShell
        title="This invitation is for someone else"
        subtitle={`It was sent to ${invitation.email}; you are signed in as ${viewer.user.email}.`}
        footer={
          <Link href="/" className={link}>
            Back to Breakwater
          </Link>
        }
      >
        <div className="space-y-3" data-testid="invite-state">
          <p className="text-[13px] text-zinc-600">
            Sign out, then open the link again and sign in or sign up as {invitation.email}.
          </p>
          <ButtonLink href="/sign-out" variant="secondary">
            Sign out
          </ButtonLink>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell
      title={title}
      subtitle={subtitle}
      footer={
        <Link href="/" className={link}>
          Not now
        </Link>
      }
    >
      <AcceptInvitationButton token={token} organizationName={org} />
    </AuthShell>
  );
}
