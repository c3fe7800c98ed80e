import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { IncidentSettingsForm } from "@/features/fleet/incidents";
import { BudgetSettingsForm } from "@/features/projects/budget-settings-form";
import { TagRulesPanel } from "@/features/projects/tag-rules-panel";
import { getCaller, getOrgViewer, HydrateClient, isTRPCCode, prefetch, trpc } from "@/lib/trpc/server";

type Props = { params: Promise<{ projectId: string }> };

export const metadata: Metadata = { title: "Project settings" };

/** Budget mode, limits, threshold alerts, run cap, tag rules and incident settings of one project. */
export default async function ProjectSettingsPage({ params }: Props) {
  const viewer = await getOrgViewer();
  const { projectId } = await params;
  try {
    await (await getCaller()).project.get({ projectId });
  } catch (err) {
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
  await prefetch(trpc.budget.settings.queryOptions({ projectId }));
  return (
    <HydrateClient>
      <div className="space-y-6">
        <BudgetSettingsForm projectId={projectId} canManage={viewer.can.manageRules} />
        <TagRulesPanel projectId={projectId} canManage={viewer.can.manageRules} />
        <IncidentSettingsForm projectId={projectId} canManage={viewer.can.manageRules} />
      </div>
    </HydrateClient>
  );
}
