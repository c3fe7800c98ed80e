import Link from "next/link";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page";
import { ModeBadge } from "@/features/projects/mode-badge";
import { ProjectTabs } from "@/features/projects/project-tabs";
import { getCaller, getOrgViewer, isTRPCCode } from "@/lib/trpc/server";

type Props = { params: Promise<{ projectId: string }>; children: ReactNode };

/** Every project page: the project's header and its tabs (Overview, Usage, Runs, Settings). */
export default async function ProjectLayout({ params, children }: Props) {
  await getOrgViewer();
  const { projectId } = await params;
  let project: Awaited<ReturnType<Awaited<ReturnType<typeof getCaller>>["project"]["get"]>>;
  try {
    project = await (await getCaller()).project.get({ projectId });
  } catch (err) {
    // The page itself answers not-found (inside this layout), so a missing project shows no tabs.
    if (isTRPCCode(err, "NOT_FOUND") || isTRPCCode(err, "BAD_REQUEST")) return children;
    throw err;
  }
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={
          <Link
            href="/projects"
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> Projects
          </Link>
        }
        title={
          <span className="flex items-center gap-2.5">
            {project.name}
            <ModeBadge mode={project.mode} />
          </span>
        }
        description={
          <span className="inline-flex items-center gap-2">
            <span className="font-mono text-[12px] text-zinc-500">{project.id}</span>
            <CopyButton value={project.id} label="Copy ID" className="h-6" />
          </span>
        }
      />
      <ProjectTabs projectId={project.id} />
      {children}
    </div>
  );
}
