import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page";
import { OperatorsConsole } from "@/features/operator/operators-console";
import { OperatorsOnly } from "@/features/operator/operators-only";
import { getViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Operators" };

/** Who operates this installation; grant and revoke the role. */
export default async function OperatorsPage() {
  const viewer = await getViewer();
  if (!viewer?.user.isOperator) return <OperatorsOnly title="Operators" />;
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={<Badge tone="brand">Operator</Badge>}
        title="Operators"
        description="Grant or revoke the operator role. Every change is audited; the last operator cannot be revoked."
      />
      <OperatorsConsole selfId={viewer.user.id} />
    </div>
  );
}
