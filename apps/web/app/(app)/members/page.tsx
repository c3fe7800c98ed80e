import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { InviteDialog } from "@/features/members/invite-dialog";
import { MembersPanel } from "@/features/members/members-panel";
import { getOrgViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const viewer = await getOrgViewer();
  const canManage = viewer.can.manageMembers;
  const isOwner = viewer.user.isOperator || viewer.role === "owner";
  await prefetch(trpc.member.list.queryOptions());
  return (
    <div className="space-y-6">
      <PageHeader
        title="Members"
        description={`People in ${viewer.organization?.name ?? "this organization"} and their roles: viewers read, members manage budgets and rules, admins manage keys, webhooks and members, owners everything.`}
        actions={canManage ? <InviteDialog canInviteOwners={isOwner} /> : null}
      />
      <HydrateClient>
        <MembersPanel canManage={canManage} isOwner={isOwner} userId={viewer.user.id} />
      </HydrateClient>
    </div>
  );
}
