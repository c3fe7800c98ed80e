import type { Metadata } from "next";
import { ButtonLink } from "@/components/ui/button";
import { BookIcon } from "@/components/ui/icons";
import { Card, PageHeader } from "@/components/ui/page";
import { ApiAccessPanel } from "@/features/api-access/api-access-panel";
import { getOrgViewer, HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "API access" };

export default async function ApiAccessPage() {
  const viewer = await getOrgViewer();
  const canManage = viewer.can.manageKeys;
  if (canManage) await prefetch(trpc.managementKey.list.queryOptions());
  if (viewer.user.isOperator) await prefetch(trpc.managementKey.operatorList.queryOptions());
  return (
    <div className="space-y-6">
      <PageHeader
        title="API access"
        description="Configure Breakwater from code with the management API (/api/manage/v1): its OpenAPI document is at /api/manage/v1/openapi.json."
        actions={
          <ButtonLink href="/settings/api-access/reference" variant="secondary">
            <BookIcon size={14} /> API reference
          </ButtonLink>
        }
      />
      <HydrateClient>
        {canManage ? (
          <ApiAccessPanel />
        ) : (
          <Card>
            <p className="px-5 py-4 text-[13px] text-zinc-600" data-testid="api-access-denied">
              Only owners and admins of {viewer.organization.name} create and revoke management keys.
            </p>
          </Card>
        )}
        {viewer.user.isOperator ? <ApiAccessPanel operator /> : null}
      </HydrateClient>
    </div>
  );
}
