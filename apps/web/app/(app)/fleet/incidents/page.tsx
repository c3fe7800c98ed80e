import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page";
import { IncidentHistory } from "@/features/fleet/incidents";

export const metadata: Metadata = { title: "Incidents" };

/** Past and open provider incidents with duration, peak share, calls saved and MTTR per provider. */
export default function IncidentsPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Incidents"
        description="One incident per provider outage in a project — opened when enough live instances are Down, resolved after the quiet period."
      />
      <IncidentHistory />
    </div>
  );
}
