import type { Metadata } from "next";
import Link from "next/link";
import { ArrowLeftIcon, LockIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { NewProjectForm } from "@/features/projects/new-project-form";
import { getOrgViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "New project" };

export default async function NewProjectPage() {
  const viewer = await getOrgViewer();
  return (
    <div className="max-w-3xl space-y-8">
      <PageHeader
        eyebrow={
          <Link
            href="/projects"
            className="inline-flex items-center gap-1 text-xs text-zinc-500 hover:text-zinc-800"
          >
            <ArrowLeftIcon size={13} /> Projects
          </Link>
        }
        title="New project"
        description={`Creates a project in ${viewer.organization?.name}. You get its API key on the next screen.`}
      />
      {viewer.can.manageProjects ? (
        <NewProjectForm />
      ) : (
        <EmptyState
          icon={<LockIcon size={18} />}
          title="You can view projects, not create them"
          description={`Creating projects needs the admin role in ${viewer.organization?.name}. You are a ${viewer.role}.`}
        />
      )}
    </div>
  );
}
