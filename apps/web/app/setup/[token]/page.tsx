import type { Metadata } from "next";
import Link from "next/link";
import { ShieldIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/states";
import { AuthShell } from "@/features/auth/auth-shell";
import { OperatorSetupForm } from "@/features/auth/operator-setup-form";
import { getCaller, getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Set up the operator" };

const REFUSED: Record<string, { title: string; description: string }> = {
  unknown: {
    title: "This setup link is not valid",
    description:
      "Restart Breakwater (npm start) or run `npm run -s bw -- operator setup-link` to print a new one.",
  },
  used: { title: "This setup link was already used", description: "A setup link works once." },
  expired: {
    title: "This setup link has expired",
    description:
      "Restart Breakwater (npm start) or run `npm run -s bw -- operator setup-link` to print a new one.",
  },
  operator_exists: {
    title: "This installation already has an operator",
    description: "Ask an operator to grant you the role from the operator console.",
  },
};

/**
 * The one-time operator setup link: its holder creates the operator account, or makes the account
 * they are signed in with the operator. Public (the proxy does not gate it); the token is checked
 * by the server on load and again, atomically, when redeemed.
 */
export default async function SetupPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [viewer, status] = await Promise.all([getViewer(), (await getCaller()).setup.status({ token })]);
  const refused = status.state === "valid" ? null : REFUSED[status.state];
  return (
    <AuthShell
      title="Set up the operator"
      subtitle="The operator of this installation edits plans, entitlements and the price catalogue, and sees every organization."
      footer={
        <Link href="/sign-in" className="font-medium text-zinc-900 underline-offset-4 hover:underline">
          Go to sign in
        </Link>
      }
    >
      {refused ? (
        <div data-testid="setup-refused">
          <EmptyState
            icon={<ShieldIcon size={18} />}
            title={refused.title}
            description={refused.description}
          />
        </div>
      ) : (
        <OperatorSetupForm token={token} signedInAs={viewer ? viewer.user.email : null} />
      )}
    </AuthShell>
  );
}
