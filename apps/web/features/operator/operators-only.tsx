import { Badge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button";
import { PlansIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";

/** What a signed-in non-operator sees on an operator page: a clear refusal, not a broken page. */
export function OperatorsOnly({ title }: { title: string }) {
  return (
    <div className="space-y-6">
      <PageHeader eyebrow={<Badge tone="brand">Operator</Badge>} title={title} />
      <EmptyState
        icon={<PlansIcon size={18} />}
        title="Operators only"
        description="Plans, entitlements and every organization's subscription are managed by the operators of this installation. Ask one of them if your organization needs a different plan or an override."
      >
        <ButtonLink href="/projects" variant="secondary">
          Back to your projects
        </ButtonLink>
      </EmptyState>
    </div>
  );
}
