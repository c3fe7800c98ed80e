import { ButtonLink } from "@/components/ui/button";
import { ProjectsIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/page";

export default function ProjectNotFound() {
  return (
    <EmptyState
      className="mt-10"
      icon={<ProjectsIcon size={18} />}
      title="Project not found"
      description="There is no project at this address in your current organization. It may have been deleted, or it belongs to an organization you are not a member of."
    >
      <ButtonLink href="/projects" variant="secondary">
        Back to projects
      </ButtonLink>
    </EmptyState>
  );
}
