import type { Metadata } from "next";
import Link from "next/link";
import { ButtonLink } from "@/components/ui/button";
import { ChevronRightIcon, LockIcon, PlusIcon, ProjectsIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { formatDate, formatUsd } from "@/features/projects/format";
import { ModeBadge } from "@/features/projects/mode-badge";
import { getCaller, getOrgViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const viewer = await getOrgViewer();
  const projects = await (await getCaller()).project.list();
  const canCreate = viewer.can.manageProjects;
  const newButton = canCreate ? (
    <ButtonLink href="/projects/new">
      <PlusIcon size={14} /> New project
    </ButtonLink>
  ) : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Projects"
        description="A project is one application's budget boundary: its SDK instances share a key, a mode and period limits."
        actions={newButton}
      />
      {projects.length === 0 ? (
        <EmptyState
          icon={<ProjectsIcon size={18} />}
          title="No projects yet"
          description="Create a project to get an API key for your SDK. Each call is then budget-checked against its limits and reported here."
        >
          {newButton ?? (
            <p className="flex items-center gap-1.5 text-xs text-zinc-500">
              <LockIcon size={13} /> Ask an admin of {viewer.organization?.name} to create one.
            </p>
          )}
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white shadow-xs">
          <table className="w-full text-left text-[13px]">
            <thead className="border-b border-zinc-200 bg-zinc-50/80 text-xs text-zinc-500">
              <tr>
                <th className="px-4 py-2.5 font-medium">Name</th>
                <th className="px-4 py-2.5 font-medium">Mode</th>
                <th className="px-4 py-2.5 text-right font-medium">Daily</th>
                <th className="px-4 py-2.5 text-right font-medium">Weekly</th>
                <th className="px-4 py-2.5 text-right font-medium">Monthly</th>
                <th className="px-4 py-2.5 font-medium">Created</th>
                <th className="w-8" />
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {projects.map((p) => (
                <tr key={p.id} className="group relative hover:bg-zinc-50/70">
                  <td className="px-4 py-3">
                    <Link
                      href={`/projects/${p.id}`}
                      className="font-medium text-zinc-900 after:absolute after:inset-0 after:content-['']"
                    >
                      {p.name}
                    </Link>
                    <div className="font-mono text-[11px] text-zinc-400">{p.id}</div>
                  </td>
                  <td className="px-4 py-3">
                    <ModeBadge mode={p.mode} />
                  </td>
                  {(["daily", "weekly", "monthly"] as const).map((period) => (
                    <td key={period} className="px-4 py-3 text-right text-zinc-700 tabular-nums">
                      {p.limits[period] === null ? (
                        <span className="text-zinc-300">—</span>
                      ) : (
                        formatUsd(p.limits[period])
                      )}
                    </td>
                  ))}
                  <td className="px-4 py-3 text-zinc-500">{formatDate(p.createdAt)}</td>
                  <td className="pr-3 text-zinc-300 group-hover:text-zinc-500">
                    <ChevronRightIcon size={15} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
