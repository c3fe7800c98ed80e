import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingState } from "@/components/ui/states";
import { overviewInput, paramsGetter } from "@/features/usage/range";
import { UsageView } from "@/features/usage/usage-view";
import { getCaller, getOrgViewer, HydrateClient, isTRPCCode, prefetch, trpc } from "@/lib/trpc/server";

type Props = {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Usage" };

/** The project's Usage tab (the project layout draws the header and tabs): the usage view for one project. */
export default async function ProjectUsagePage({ params, searchParams }: Props) {
  await getOrgViewer();
  const { projectId } = await params;
  try {
    // Another tenant's project and a missing one look the same: not found.
    await (await getCaller()).project.get({ projectId });
  } catch (err) {
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
  const { input } = overviewInput(paramsGetter(await searchParams), projectId);
  await prefetch(trpc.usage.overview.queryOptions(input));
  return (
    <HydrateClient>
      <Suspense fallback={<LoadingState label="Loading usage" rows={6} />}>
        <UsageView projectId={projectId} />
      </Suspense>
    </HydrateClient>
  );
}
