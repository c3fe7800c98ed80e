import type { Metadata } from "next";
import { UsageIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { ComingUp } from "@/components/ui/preview";

export const metadata: Metadata = { title: "Usage" };

export default function UsagePage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Usage"
        description="Spend, requests and failovers from the metadata your SDKs report, priced from the model catalogue."
      />
      <EmptyState
        icon={<UsageIcon size={18} />}
        title="No usage recorded yet"
        description="Each completed call reports its tokens, model and outcome (never the prompt). Breakwater prices it and rolls it up hourly, so charts stay fast at millions of events."
      />
      <ComingUp
        items={[
          {
            title: "Spend and requests",
            text: "By day, provider, model, tag and agent run, against your period limits.",
          },
          {
            title: "Failovers and savings",
            text: "Failovers by reason, the share of calls a fallback saved, avoided cost.",
          },
          {
            title: "Latency and unpriced usage",
            text: "p50/p95 per provider; models without a price card counted in tokens.",
          },
        ]}
      />
    </div>
  );
}
