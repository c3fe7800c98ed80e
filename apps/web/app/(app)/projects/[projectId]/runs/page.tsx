import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunsTable } from "@/features/projects/runs-table";
import { getCaller, getOrgViewer, HydrateClient, isTRPCCode, prefetch, trpc } from "@/lib/trpc/server";

type Props = {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<{ run?: string | string[] }>;
};

export const metadata: Metadata = { title: "Agent runs" };

/** The project's agent runs; `?run=<id>` opens and highlights one. */
export default async function ProjectRunsPage({ params, searchParams }: Props) {
  const viewer = await getOrgViewer();
  const { projectId } = await params;
  const { run } = await searchParams;
  try {
    await (await getCaller()).project.get({ projectId });
  } catch (err) {
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
  const highlight = typeof run === "string" && run.length > 0 && run.length <= 256 ? run : null;
  await prefetch(
    trpc.run.list.infiniteQueryOptions(
      { projectId, limit: 25 },
      { getNextPageParam: (l) => l.nextCursor ?? undefined },
    ),
  );
  return (
    <HydrateClient>
      <RunsTable projectId={projectId} canManage={viewer.can.manageRules} highlight={highlight} />
    </HydrateClient>
  );
}
