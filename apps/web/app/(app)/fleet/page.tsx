import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page";
import { FleetOverview } from "@/features/fleet/fleet-overview";

export const metadata: Metadata = { title: "Fleet" };

export default function FleetPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Fleet"
        description="Which providers are Healthy, Down or Recovering for each project, across every SDK instance — worst first, updated as breakers report."
      />
      <Suspense>
        <FleetOverview />
      </Suspense>
    </div>
  );
}
