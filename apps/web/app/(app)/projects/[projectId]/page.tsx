import { sdkPublicUrl } from "@breakwater/config";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/page";
import { ProjectEntitlements } from "@/features/operator/project-entitlements";
import { ActiveLeases } from "@/features/projects/active-leases";
import { ApiKeysPanel } from "@/features/projects/api-keys-panel";
import { ConnectSdk } from "@/features/projects/connect-sdk";
import { formatDate, formatUsd, MODE_HELP } from "@/features/projects/format";
import { NewKeyProvider } from "@/features/projects/new-key";
import { getRuntime } from "@/lib/server/runtime";
import { getCaller, getOrgViewer, HydrateClient, isTRPCCode, prefetch, trpc } from "@/lib/trpc/server";

type Props = { params: Promise<{ projectId: string }> };

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
    return { title: project.name };
  } catch {
    return { title: "Project not found" };
  }
}

export default async function ProjectPage({ params }: Props) {
  const viewer = await getOrgViewer();
  const { projectId } = await params;
  const project = await loadProject(projectId);
  await prefetch(
    trpc.apiKey.list.queryOptions({ projectId: project.id }),
    trpc.lease.listActive.queryOptions({ projectId: project.id }),
    trpc.project.entitlements.queryOptions({ projectId: project.id }),
  );
  const sdkBaseUrl = sdkPublicUrl(getRuntime().config);

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Budget"
          description={MODE_HELP[project.mode]}
          actions={
            <ButtonLink href={`/projects/${project.id}/settings`} variant="secondary" size="sm">
              Edit budget
            </ButtonLink>
          }
        />
        <dl className="grid divide-zinc-100 sm:grid-cols-4 sm:divide-x">
          {(["daily", "weekly", "monthly"] as const).map((period) => (
            <div key={period} className="px-5 py-4">
              <dt className="text-xs text-zinc-500 capitalize">{period} limit</dt>
              <dd className="mt-1 text-lg font-semibold tracking-tight text-zinc-900 tabular-nums">
                {project.limits[period] === null ? (
                  <span className="text-zinc-300">None</span>
                ) : (
                  formatUsd(project.limits[period])
                )}
              </dd>
            </div>
          ))}
          <div className="px-5 py-4">
            <dt className="text-xs text-zinc-500">Created</dt>
            <dd className="mt-1 text-[13px] font-medium text-zinc-900">{formatDate(project.createdAt)}</dd>
          </div>
        </dl>
      </Card>

      <NewKeyProvider>
        <HydrateClient>
          <ApiKeysPanel projectId={project.id} canManage={viewer.can.manageKeys} />
          <ActiveLeases projectId={project.id} />
          <ProjectEntitlements projectId={project.id} />
        </HydrateClient>

        <ConnectSdk sdkBaseUrl={sdkBaseUrl} />
      </NewKeyProvider>
    </div>
  );
}
