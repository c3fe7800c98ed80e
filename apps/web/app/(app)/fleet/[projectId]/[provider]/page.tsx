import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { ProviderHealthView } from "@/features/fleet/provider-health";
import { getCaller, getOrgViewer, isTRPCCode } from "@/lib/trpc/server";

type Props = { params: Promise<{ projectId: string; provider: string }> };

/** The page every breaker webhook's `dashboard_url` links to: /fleet/{projectId}/{provider}. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { provider } = await params;
  return { title: `${decodeURIComponent(provider)} · Fleet` };
}

export default async function ProviderPage({ params }: Props) {
  await getOrgViewer();
  const { projectId, provider: raw } = await params;
  const provider = decodeURIComponent(raw);
  let projectName: string;
  try {
    // The same guard as every read: another tenant's project is not found, never forbidden.
    const page = await (await getCaller()).fleet.provider({
      projectId,
      provider,
      days: 1,
      transitionsLimit: 1,
    });
    projectName = page.projectName;
  } catch (err) {
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) notFound();
    throw err;
  }
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link
            href="/fleet"
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> Fleet
          </Link>
        }
        title={
          <span>
            {provider} <span className="font-normal text-zinc-400">in</span> {projectName}
          </span>
        }
        description="Instances, open episodes, the transition timeline, 90-day uptime and the failover feed of this provider in this project."
      />
      <ProviderHealthView projectId={projectId} provider={provider} />
    </div>
  );
}
