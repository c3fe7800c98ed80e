import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BudgetSettingsForm } from "@/features/projects/budget-settings-form";
import { TagRulesPanel } from "@/features/projects/tag-rules-panel";
import { getCaller, getQueryClient, getViewer, HydrateClient, isTRPCCode, trpc } from "@/lib/trpc/server";

type Props = { params: Promise<{ projectId: string }> };

export const metadata: Metadata = { title: "Project settings" };

/** Budget mode, limits, threshold alerts, run cap and tag rules of one project. */
export default async function ProjectSettingsPage({ params }: Props) {
  const { projectId } = await params;
  try {
    await (await getCaller()).project.get({ projectId });
  } catch (err) {
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
  const viewer = (await getViewer())!;
  void getQueryClient().prefetchQuery(trpc.budget.settings.queryOptions({ projectId }));
  return (
    <HydrateClient>
      <div className="space-y-6">
        <BudgetSettingsForm projectId={projectId} canManage={viewer.can.manageRules} />
        <TagRulesPanel projectId={projectId} canManage={viewer.can.manageRules} />
      </div>
    </HydrateClient>
  );
}
