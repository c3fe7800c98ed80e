import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { EndpointsPanel } from "@/features/webhooks/endpoints-panel";
import { RETRY_SCHEDULE_TEXT } from "@/features/webhooks/format";
import { webhookPageContext } from "@/features/webhooks/page-data";
import { WebhooksNav } from "@/features/webhooks/webhooks-nav";
import { HydrateClient, prefetch, trpc } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const { canManage, planName } = await webhookPageContext();
  await prefetch(
    trpc.webhooks.settings.queryOptions(),
    trpc.webhooks.listEndpoints.queryOptions({}),
    trpc.project.list.queryOptions(),
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description={`Get paged once per provider outage (an incident opens, then resolves), on breaker changes and on budget thresholds; each endpoint picks its event types. Messages are signed per the Standard Webhooks spec; a failed delivery is retried ${RETRY_SCHEDULE_TEXT}.`}
      />
      <WebhooksNav />
      <HydrateClient>
        <EndpointsPanel canManage={canManage} planName={planName} />
      </HydrateClient>
    </div>
  );
}
