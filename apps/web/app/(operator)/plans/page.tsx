import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { PlansConsole } from "@/features/operator/plans-console";
import { getViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Plans" };

/** Operator console: the plans of this installation. Everyone else is told it is for operators. */
export default async function PlansPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Plans" />;
  await prefetch(trpc.operator.listPlans.queryOptions());
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={<Badge tone="brand">Operator</Badge>}
        title="Plans"
        description="What each plan may do on this installation: price, features and limits, versioned."
        actions={
          <ButtonLink href="/plans/organizations" variant="secondary">
            Organizations
          </ButtonLink>
        }
      />
      <HydrateClient>
        <PlansConsole />
      </HydrateClient>
    </div>
  );
}
