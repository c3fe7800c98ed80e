import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page";
import { LoadingState } from "@/components/ui/states";
import { overviewInput, paramsGetter } from "@/features/usage/range";
import { UsageView } from "@/features/usage/usage-view";
import { getCaller, getOrgViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Usage" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function UsagePage({ searchParams }: Props) {
  await getOrgViewer();
  const { input } = overviewInput(paramsGetter(await searchParams));
  await prefetch(trpc.usage.overview.queryOptions(input));
  const projects = await (await getCaller()).project.list();
  const projectNames = Object.fromEntries(projects.map((p) => [p.id, p.name]));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Usage"
        description="Spend, requests and failovers across the organization's projects, from the metadata your SDKs report, priced from the model catalogue."
      />
      <HydrateClient>
        <Suspense fallback={<LoadingState label="Loading usage" rows={6} />}>
          <UsageView projectNames={projectNames} />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
