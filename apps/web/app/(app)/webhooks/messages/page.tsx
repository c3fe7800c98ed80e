import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { RETRY_SCHEDULE_TEXT } from "@/features/webhooks/format";
import { MessageLog } from "@/features/webhooks/message-log";
import { webhookPageContext } from "@/features/webhooks/page-data";
import { WebhooksNav } from "@/features/webhooks/webhooks-nav";
import { HydrateClient } from "@/lib/trpc/server";

export const metadata: Metadata = { title: "Webhook messages" };

type Props = { searchParams: Promise<{ endpoint?: string; message?: string }> };

export default async function MessagesPage({ searchParams }: Props) {
  const { canManage } = await webhookPageContext();
  const sp = await searchParams;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description={`Every message, newest first, with each attempt. A failed delivery is retried ${RETRY_SCHEDULE_TEXT}; a replay resends it now with the same webhook-id.`}
      />
      <WebhooksNav />
      <HydrateClient>
        <MessageLog
          canManage={canManage}
          initialEndpoint={typeof sp.endpoint === "string" ? sp.endpoint : undefined}
          initialMessage={typeof sp.message === "string" ? sp.message : undefined}
        />
      </HydrateClient>
    </div>
  );
}
