import type { Metadata } from "next";
import { ButtonLink } from "@/components/ui/button";
import { LockIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { AuditLog } from "@/features/audit/audit-log";
import { getCaller, getOrgViewer, HydrateClient } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const viewer = await getOrgViewer();
  if (!viewer.can.readAudit) {
    return (
      <div className="space-y-6">
        <PageHeader title="Audit log" />
        <EmptyState
          icon={<LockIcon size={18} />}
          title="Admins only"
          description={`The audit log of ${viewer.organization?.name ?? "this organization"} — who changed what, with before and after — is visible to its admins and owners. Ask one of them if you need it.`}
        >
          <ButtonLink href="/projects" variant="secondary">
            Back to your projects
          </ButtonLink>
        </EmptyState>
      </div>
    );
  }
  const retentionDays = (await (await getCaller()).audit.list({ limit: 1 })).retentionDays;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description={`Every change to plans, entitlements, budgets, rules, keys, webhooks, members and runs: who, what, before and after. Kept ${retentionDays} days on your plan.`}
      />
      <HydrateClient>
        <AuditLog retentionDays={retentionDays} />
      </HydrateClient>
    </div>
  );
}
