"use client";

import { formatDuration } from "@breakwater/core/fleet-status";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { ButtonLink } from "@/components/ui/button";
import { FleetIcon } from "@/components/ui/icons";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { cn } from "@/lib/cn";
import { useTRPC } from "@/lib/trpc/client";
import { OpenIncidents } from "./incidents";
import { LiveIndicator, STATUS_STYLE, StatusDot } from "./status";
import { POLL_MS, useFleetLive } from "./use-fleet-live";

/** A clock for "Down for 12 min" that moves on its own. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** The filters' "no filter" value (the kit's Select takes no empty string). */
const ALL = "__all";

/** The projects × providers grid of the active organization, worst first, kept live. */
export function FleetOverview() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const project = params.get("project") ?? "";
  const provider = params.get("provider") ?? "";
  const input = { projectIds: project ? [project] : undefined, providers: provider ? [provider] : undefined };
  const [streamMode, setStreamMode] = useState<"connecting" | "streaming" | "polling">("connecting");
  const query = useQuery({
    ...trpc.fleet.overview.queryOptions(input),
    placeholderData: (prev) => prev,
    refetchInterval: streamMode === "polling" ? POLL_MS : false,
  });
  const mode = useFleetLive({ nextStaleAt: query.data?.nextStaleAt });
  useEffect(() => setStreamMode(mode), [mode]);
  const now = useNow(15_000);

  const setFilter = (key: "project" | "provider", value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    const qs = next.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  // Open incidents come first and load on their own: a page opened during an outage shows them
  // even while the grid is still loading.
  const incidents = <OpenIncidents now={now} polling={mode === "polling"} />;
  if (query.isPending) {
    return (
      <div className="space-y-4">
        {incidents}
        <OverviewSkeleton />
      </div>
    );
  }
  if (query.isError && !query.data) {
    return (
      <div className="space-y-4">
        {incidents}
        <ErrorState
          title="The fleet could not be loaded"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  }
  const data = query.data;
  if (!data) return null;
  const nobodyReported = data.allProviders.length === 0;

  return (
    <div className="space-y-4">
      {incidents}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <fieldset className="m-0 flex flex-wrap items-center gap-2 border-0 p-0" aria-label="Filters">
          <Select value={project || ALL} onValueChange={(v) => setFilter("project", v === ALL ? "" : v)}>
            <SelectTrigger aria-label="Project" className="h-8 w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All projects</SelectItem>
              {data.allProjects.map((p) => (
                <SelectItem key={p.id} value={p.id}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Select value={provider || ALL} onValueChange={(v) => setFilter("provider", v === ALL ? "" : v)}>
            <SelectTrigger aria-label="Provider" className="h-8 w-40">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All providers</SelectItem>
              {data.allProviders.map((p) => (
                <SelectItem key={p} value={p}>
                  {p}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </fieldset>
        <div className="flex flex-wrap items-center gap-3 text-xs text-zinc-500">
          <span>
            {(["Down", "Recovering", "Healthy", "Unknown"] as const).map((s) => (
              <span key={s} className="mr-3 inline-flex items-center gap-1.5">
                <StatusDot status={s} />
                {data.totals[s]} {s}
              </span>
            ))}
          </span>
          <LiveIndicator mode={mode} />
        </div>
      </div>

      {nobodyReported ? (
        <EmptyState
          icon={<FleetIcon size={18} />}
          title="No SDK instances have reported yet"
          description="As soon as an SDK with a project key starts, it sends one circuit-breaker snapshot per provider, and this grid fills in by itself. To see it move now, run the fleet simulator against a project: npm run -s bw -- simulate --project <id>."
        >
          <ButtonLink href="/projects" variant="secondary">
            Get a project key
          </ButtonLink>
        </EmptyState>
      ) : data.projects.length === 0 || data.providers.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-center text-[13px] text-zinc-500">
          Nothing matches these filters.
        </p>
      ) : (
        <div className="space-y-2" data-testid="fleet-grid">
          <div
            className="hidden gap-2 px-3 text-[11px] font-medium uppercase tracking-wide text-zinc-500 md:grid"
            style={{
              gridTemplateColumns: `minmax(10rem, 1.2fr) repeat(${data.providers.length}, minmax(0, 1fr))`,
            }}
            aria-hidden
          >
            <span>Project</span>
            {data.providers.map((p) => (
              <span key={p}>{p}</span>
            ))}
          </div>
          {data.projects.map((row) => (
            <section
              key={row.id}
              aria-label={row.name}
              data-testid="fleet-row"
              className="grid grid-cols-1 gap-2 rounded-lg border border-zinc-200 bg-white p-3 shadow-xs sm:grid-cols-2 md:[grid-template-columns:var(--cols)]"
              style={
                {
                  "--cols": `minmax(10rem, 1.2fr) repeat(${data.providers.length}, minmax(0, 1fr))`,
                } as React.CSSProperties
              }
            >
              <div className="flex min-w-0 items-center gap-2 sm:col-span-2 md:col-span-1">
                <StatusDot status={row.status} />
                <span className="truncate text-[13px] font-semibold text-zinc-900">{row.name}</span>
              </div>
              {data.providers.map((p) => {
                const c = row.cells[p];
                if (!c) return null;
                const live = c.healthy + c.down + c.recovering;
                const style = STATUS_STYLE[c.status];
                const sinceText = c.since
                  ? `${c.status} for ${formatDuration((now - Date.parse(c.since)) / 1000)}`
                  : null;
                return (
                  <Link
                    key={p}
                    href={`/fleet/${row.id}/${encodeURIComponent(p)}`}
                    data-testid="fleet-cell"
                    data-project={row.id}
                    data-provider={p}
                    data-status={c.status}
                    data-down={c.down}
                    data-stale={c.stale}
                    aria-label={`${row.name}, ${p}: ${c.summary}${c.stale ? `, ${c.stale} stale` : ""}`}
                    className={cn(
                      "block min-w-0 rounded-md border px-2.5 py-2 transition-colors hover:border-zinc-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500",
                      style.cell,
                      !c.reported && "border-dashed",
                    )}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className={cn("flex items-center gap-1.5 text-[13px] font-medium", style.text)}>
                        <StatusDot status={c.status} />
                        {c.status}
                      </span>
                      <span className="text-[11px] text-zinc-500 md:hidden">{p}</span>
                    </span>
                    <span className="mt-0.5 block truncate text-xs text-zinc-600">{c.summary}</span>
                    {live > 0 && sinceText ? (
                      <span className="block text-[11px] text-zinc-500">{sinceText}</span>
                    ) : null}
                    {c.stale > 0 ? (
                      <span className="block text-[11px] text-zinc-400" data-testid="stale-count">
                        {c.stale} stale
                      </span>
                    ) : null}
                    {c.unprobedNote ? (
                      <span
                        className="mt-1 block text-[11px] font-medium leading-snug text-amber-800"
                        data-testid="unprobed-note"
                      >
                        {c.unprobedNote}
                      </span>
                    ) : null}
                  </Link>
                );
              })}
            </section>
          ))}
        </div>
      )}
      <p className="text-xs text-zinc-400">
        Instances silent for {formatDuration(data.staleAfterSeconds)} are stale: greyed, counted apart, left
        out of status.
      </p>
    </div>
  );
}

function OverviewSkeleton() {
  return <LoadingState label="Loading the fleet" rows={4} />;
}
