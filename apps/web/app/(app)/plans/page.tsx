import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { PlansIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { GhostTable } from "@/components/ui/preview";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Plans" };

/** Operator-only: everyone else gets a plain 404, like any page they may not know about. */
export default async function PlansPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) notFound();
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={<Badge tone="brand">Operator</Badge>}
        title="Plans"
        description="What each plan may do on this installation: features, limits and per-organization overrides."
      />
      <EmptyState
        icon={<PlansIcon size={18} />}
        title="Plan editing arrives here"
        description="The four default plans (Free, Solo, Team, Business) are seeded. Editing a plan will create a new version, show the diff between versions, and let subscriptions stay pinned to an older one."
      />
      <GhostTable
        columns={["Plan", "Price", "Requests / month", "Projects", "Retention", "Failover tuning"]}
      />
    </div>
  );
}
