import type { Metadata } from "next";
import { WebhooksIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { ComingUp } from "@/components/ui/preview";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Get paged when a provider's breaker opens or closes, with signed, retried deliveries."
      />
      <EmptyState
        icon={<WebhooksIcon size={18} />}
        title="No endpoints yet"
        description="Endpoints receive circuit_breaker_opened and circuit_breaker_closed events (and budget thresholds), signed per the Standard Webhooks spec and retried for up to three days."
      >
        <div className="flex flex-wrap justify-center gap-2 font-mono text-[11px]">
          <span className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-zinc-600">
            circuit_breaker_opened
          </span>
          <span className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-zinc-600">
            circuit_breaker_closed
          </span>
          <span className="rounded-md border border-zinc-200 bg-white px-2 py-1 text-zinc-600">
            budget_threshold_crossed
          </span>
        </div>
      </EmptyState>
      <ComingUp
        items={[
          {
            title: "Endpoints",
            text: "Add, test, rotate the signing secret, filter by event type and provider.",
          },
          {
            title: "Message log",
            text: "Every attempt with status, latency and response code; replay any message.",
          },
          { title: "Event catalogue", text: "The JSON schema and a sample payload for each event type." },
        ]}
      />
    </div>
  );
}
