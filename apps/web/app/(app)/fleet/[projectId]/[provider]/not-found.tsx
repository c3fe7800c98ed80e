import { ButtonLink } from "@/components/ui/button";
import { FleetIcon } from "@/components/ui/icons";
import { EmptyState } from "@/components/ui/page";

export default function ProviderNotFound() {
  return (
    <EmptyState
      className="mt-10"
      icon={<FleetIcon size={18} />}
      title="Project not found"
      description="There is no project at this address in your current organization. It may have been deleted, or it belongs to an organization you are not a member of."
    >
      <ButtonLink href="/fleet" variant="secondary">
        Back to the fleet
      </ButtonLink>
    </EmptyState>
  );
}
