import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { LoadingState } from "@/components/ui/states";
import { overviewInput, paramsGetter } from "@/features/usage/range";
import { UsageView } from "@/features/usage/usage-view";
import { getCaller, getQueryClient, HydrateClient, isTRPCCode, trpc } from "@/lib/trpc/server";

type Props = {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function loadProject(projectId: string) {
  try {
    return await (await getCaller()).project.get({ projectId });
  } catch (err) {
    // Another tenant's project and a missing one look the same: not found.
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { projectId } = await params;
  try {
    const project = await (await getCaller()).project.get({ projectId });
    return { title: `Usage · ${project.name}` };
  } catch {
    return { title: "Project not found" };
  }
}

export default async function ProjectUsagePage({ params, searchParams }: Props) {
  const { projectId } = await params;
  const project = await loadProject(projectId);
  const { input } = overviewInput(paramsGetter(await searchParams), project.id);
  void getQueryClient().prefetchQuery(trpc.usage.overview.queryOptions(input));
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link
            href={`/projects/${project.id}`}
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> {project.name}
          </Link>
        }
        title={
          <span>
            Usage <span className="font-normal text-zinc-400">of</span> {project.name}
          </span>
        }
        description="This project's spend, requests, failovers and runs, from the metadata its SDKs report."
      />
      <HydrateClient>
        <Suspense fallback={<LoadingState label="Loading usage" rows={6} />}>
          <UsageView projectId={project.id} />
        </Suspense>
      </HydrateClient>
    </div>
  );
}
