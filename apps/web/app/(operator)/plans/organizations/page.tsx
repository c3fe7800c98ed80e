import type { Metadata } from "next";
import Link from "next/link";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { OrganizationsConsole } from "@/features/operator/organizations-console";
import { getViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Organizations" };

/** Operator console: every organization of the installation. */
export default async function OperatorOrganizationsPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Organizations" />;
  await prefetch(
    trpc.operator.listOrganizations.infiniteQueryOptions(
      { search: "", limit: 25 },
      {
        getNextPageParam: (last) => last.nextCursor ?? undefined,
      },
    ),
  );
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link
            href="/plans"
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> Plans
          </Link>
        }
        title="Organizations"
        description="Every organization on this installation, its plan and this month's requests against its quota."
      />
      <HydrateClient>
        <OrganizationsConsole />
      </HydrateClient>
    </div>
  );
}
