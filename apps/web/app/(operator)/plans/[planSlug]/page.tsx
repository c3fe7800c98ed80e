import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { PlanEditor } from "@/features/operator/plan-editor";
import { getCaller, getQueryClient, getViewer, HydrateClient, isTRPCCode, trpc } from "@/lib/trpc/server";

type Props = { params: Promise<{ planSlug: string }> };

export const metadata: Metadata = { title: "Plan" };

/** Operator console: one plan's editor and versions. */
export default async function PlanPage({ params }: Props) {
  const { planSlug } = await params;
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Plans" />;
  const plan = await (await getCaller()).operator.getPlan({ planSlug }).catch((err: unknown) => {
    if (isTRPCCode(err, "NOT_FOUND")) notFound();
    throw err;
  });
  getQueryClient().setQueryData(trpc.operator.getPlan.queryKey({ planSlug }), plan);
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
        title={plan.name}
        description={<span className="font-mono text-[12px]">{plan.slug}</span>}
      />
      <HydrateClient>
        <PlanEditor planSlug={planSlug} />
      </HydrateClient>
    </div>
  );
}
