import type { Metadata } from "next";
import { ButtonLink } from "@/components/ui/button";
import { FleetIcon } from "@/components/ui/icons";
import { EmptyState, PageHeader } from "@/components/ui/page";
import { ComingUp } from "@/components/ui/preview";

export const metadata: Metadata = { title: "Fleet" };

const STATES = [
  { label: "Healthy", dot: "bg-emerald-500", text: "Breaker closed: calls flow to the provider." },
  { label: "Recovering", dot: "bg-amber-500", text: "Half-open: a few trial calls test the provider." },
  { label: "Down", dot: "bg-red-500", text: "Open: the SDK fails over to a fallback." },
  { label: "Stale", dot: "bg-zinc-300", text: "No report for 3 heartbeats; left out of status." },
];

export default function FleetPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Fleet"
        description="Which providers are Healthy, Down or Recovering, across every SDK instance of every project."
      />
      <EmptyState
        icon={<FleetIcon size={18} />}
        title="No SDK instances have reported yet"
        description="As soon as an SDK with a project key starts, it sends one circuit-breaker snapshot per provider. This page then shows a projects × providers grid with counts such as “2 of 7 instances Down”, refreshed every few seconds."
      >
        <ButtonLink href="/projects" variant="secondary">
          Get a project key
        </ButtonLink>
        <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-xs text-zinc-500">
          {STATES.map((s) => (
            <li key={s.label} className="flex items-center gap-1.5" title={s.text}>
              <span className={`size-2 rounded-full ${s.dot}`} />
              <span className="font-medium text-zinc-700">{s.label}</span>
            </li>
          ))}
        </ul>
      </EmptyState>
      <ComingUp
        items={[
          {
            title: "Provider pages",
            text: "Instances, the transition timeline and 90-day uptime bars per provider.",
          },
          {
            title: "Open episodes",
            text: "Every outage from the first Down to its recovery, with its duration.",
          },
          {
            title: "Failover feed",
            text: "Requested → served, the reason, and how many calls a fallback saved.",
          },
        ]}
      />
    </div>
  );
}
