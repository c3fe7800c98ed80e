import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { PlanNotice } from "@/features/webhooks/endpoints-panel";
import { EventCatalogue } from "@/features/webhooks/event-catalogue";
import { webhookPageContext } from "@/features/webhooks/page-data";
import { WebhooksNav } from "@/features/webhooks/webhooks-nav";
import { getCaller, getOrgViewer } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Webhook event types" };

export default async function EventsPage() {
  await getOrgViewer();
  const { planName } = await webhookPageContext();
  const caller = await getCaller();
  const [types, settings] = await Promise.all([caller.webhooks.eventTypes(), caller.webhooks.settings()]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="The events an endpoint can receive: each one's JSON schema and a sample payload. The webhook-id header carries the event id, so receivers can deduplicate retries and replays."
      />
      <WebhooksNav />
      {settings.breakerWebhooks ? null : <PlanNotice planName={planName} />}
      <EventCatalogue types={types} />
    </div>
  );
}
