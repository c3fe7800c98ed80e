"use client";

import { formatDuration } from "@breakwater/core/fleet-status";
import { groupEpisodesByIncident } from "@breakwater/core/incident-rules";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { AlertIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { cn } from "@/lib/cn";
import { useTRPC } from "@/lib/trpc/client";
import { TimelineChart, UptimeBars } from "./charts";
import { useNow } from "./fleet-overview";
import { ProviderIncidents } from "./incidents";
import { FailoverFeed, formatTime, InstanceTable } from "./provider-tables";
import { LiveIndicator, StatusLabel } from "./status";
import { POLL_MS, useFleetLive } from "./use-fleet-live";

type Range = "24h" | "7d" | "30d";
const RANGES: { value: Range; label: string }[] = [
  { value: "24h", label: "24 h" },
  { value: "7d", label: "7 d" },
  { value: "30d", label: "30 d" },
];

/**
 * One provider in one project: status, episodes, timeline, uptime, then the instance table and the
 * failover feed (each read a page at a time), kept live.
 */
export function ProviderHealthView({ projectId, provider }: { projectId: string; provider: string }) {
  const trpc = useTRPC();
  const [range, setRange] = useState<Range>("24h");
  const [streamMode, setStreamMode] = useState<"connecting" | "streaming" | "polling">("connecting");
  const query = useQuery({
    ...trpc.fleet.provider.queryOptions({ projectId, provider, range, days: 90 }),
    placeholderData: (prev) => prev,
    refetchInterval: streamMode === "polling" ? POLL_MS : false,
  });
  const mode = useFleetLive({
    matches: (c) => c.projectId === projectId && c.provider === provider,
    nextStaleAt: query.data?.nextStaleAt,
  });
  useEffect(() => setStreamMode(mode), [mode]);
  const now = useNow(1000);
  const incidentsQuery = useQuery({
    ...trpc.fleet.incidents.queryOptions({ days: 90, projectId, provider }),
    placeholderData: (prev) => prev,
    refetchInterval: streamMode === "polling" ? POLL_MS : false,
  });
  const incidents = incidentsQuery.data?.incidents ?? [];
  // The paged tables load beside the summary, not after it.
  const tables = (
    <>
      <InstanceTable
        projectId={projectId}
        provider={provider}
        staleAfterSeconds={query.data?.staleAfterSeconds}
        polling={streamMode === "polling"}
        now={now}
      />
      <FailoverFeed
        projectId={projectId}
        provider={provider}
        savedCalls24h={query.data?.savedCalls24h}
        polling={streamMode === "polling"}
      />
    </>
  );

  if (query.isPending || (query.isError && !query.data)) {
    return (
      <div className="space-y-5">
        {query.isPending ? (
          <LoadingState label="Loading the provider" rows={5} />
        ) : (
          <ErrorState
            title="This provider's health could not be loaded"
            message={query.error?.message ?? ""}
            onRetry={() => void query.refetch()}
          />
        )}
        {tables}
      </div>
    );
  }
  const d = query.data;
  if (!d) return null;
  const live = d.counts.healthy + d.counts.down + d.counts.recovering;
  // Episodes under the incident they belong to: the per-instance rows sit behind its disclosure.
  const openIncidents = incidents.filter((i) => i.status === "open");
  const openGroups = groupEpisodesByIncident(openIncidents, d.openEpisodes, now);
  const allGroups = groupEpisodesByIncident(
    incidents,
    [...d.openEpisodes.map((e) => ({ ...e, closedAt: null })), ...d.recentEpisodes],
    now,
  );
  const episodeRow = (e: (typeof d.openEpisodes)[number]) => (
    <li
      key={e.id}
      className="flex flex-wrap items-center justify-between gap-2 px-5 py-3 text-[13px]"
      data-testid="open-episode"
    >
      <span className="flex min-w-0 items-center gap-3">
        <StatusLabel status={e.state} />
        <code className="truncate text-xs text-zinc-600">{e.sdkInstanceId}</code>
      </span>
      <span className="text-zinc-600">
        open for{" "}
        <strong className="font-semibold text-zinc-900" data-testid="episode-duration">
          {formatDuration((now - Date.parse(e.openedAt)) / 1000)}
        </strong>{" "}
        <span className="text-zinc-400">since {formatTime(e.openedAt)}</span>
      </span>
    </li>
  );

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          className="flex flex-wrap items-center gap-3"
          data-testid="provider-status"
          data-status={d.status}
        >
          <StatusLabel status={d.status} />
          <span className="text-[13px] text-zinc-600">{d.summary}</span>
          {d.counts.stale > 0 ? (
            <span className="text-[13px] text-zinc-400">{d.counts.stale} stale</span>
          ) : null}
        </div>
        <LiveIndicator mode={mode} />
      </div>

      {d.unprobedNote ? (
        <div
          role="note"
          data-testid="unprobed-note"
          className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-[13px] text-amber-900"
        >
          <AlertIcon size={15} className="mt-0.5 shrink-0" />
          <span>
            <strong className="font-semibold">{d.unprobedNote}.</strong> The SDK does not retry a primary
            while its fallback is healthy, so this may be a breaker nobody re-probed rather than an outage.
          </span>
        </div>
      ) : null}

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Live instances" value={String(live)} />
        <Stat label="Down" value={String(d.counts.down)} tone={d.counts.down > 0 ? "red" : undefined} />
        <Stat label="Open episodes" value={String(d.openEpisodes.length)} />
        <Stat label="Calls saved by a fallback (24 h)" value={d.savedCalls24h.toLocaleString("en-US")} />
      </dl>

      <Card>
        <CardHeader
          title="Open episodes"
          description="From the first Down report until the breaker closes again."
        />
        {d.openEpisodes.length === 0 ? (
          <p className="px-5 py-4 text-[13px] text-zinc-500">
            No open episode: every instance's breaker is closed.
          </p>
        ) : (
          <div className="divide-y divide-zinc-100">
            {openIncidents.map((inc) => {
              const eps = openGroups.byIncident[inc.id] ?? [];
              if (eps.length === 0) return null;
              return (
                <details key={inc.id} open={eps.length <= 5} data-testid="incident-episodes">
                  <summary className="cursor-pointer bg-red-50/60 px-5 py-2.5 text-[13px] font-medium text-red-800">
                    Incident since {formatTime(inc.openedAt)} · {eps.length} instance episode
                    {eps.length === 1 ? "" : "s"}
                  </summary>
                  <ul className="divide-y divide-zinc-100" aria-label="Open episodes">
                    {eps.map(episodeRow)}
                  </ul>
                </details>
              );
            })}
            {openGroups.ungrouped.length > 0 ? (
              <ul className="divide-y divide-zinc-100" aria-label="Open episodes">
                {openGroups.ungrouped.map(episodeRow)}
              </ul>
            ) : null}
          </div>
        )}
      </Card>

      <ProviderIncidents incidents={incidents} episodesOf={(id) => allGroups.byIncident[id] ?? []} />

      <Card>
        <CardHeader
          title="Transition timeline"
          description="State changes reported by this provider's breakers."
          actions={
            <fieldset
              aria-label="Timeline range"
              className="m-0 inline-flex rounded-md border border-zinc-200 p-0.5"
            >
              {RANGES.map((r) => (
                <button
                  key={r.value}
                  type="button"
                  aria-pressed={range === r.value}
                  onClick={() => setRange(r.value)}
                  className={cn(
                    "rounded px-2.5 py-1 text-xs font-medium",
                    range === r.value ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100",
                  )}
                >
                  {r.label}
                </button>
              ))}
            </fieldset>
          }
        />
        <div className="px-3 pt-4 md:px-5">
          <TimelineChart buckets={d.timeline} range={d.range} />
        </div>
        {d.transitions.length === 0 ? (
          <p className="px-5 py-4 text-[13px] text-zinc-500">No transition in this range.</p>
        ) : (
          <ol
            className="max-h-72 divide-y divide-zinc-100 overflow-y-auto border-t border-zinc-100"
            aria-label="Transitions"
          >
            {d.transitions.slice(0, 50).map((t) => (
              <li
                key={t.id}
                className="flex flex-wrap items-center justify-between gap-2 px-5 py-2 text-[13px]"
                data-testid="transition"
              >
                <span className="flex min-w-0 items-center gap-2">
                  <span className="text-zinc-500">{t.from ? LABEL[t.from] : "First report"}</span>
                  <span aria-hidden>→</span>
                  <StatusLabel status={LABEL[t.to]} />
                  <code className="truncate text-xs text-zinc-500">{t.sdkInstanceId}</code>
                </span>
                <span className="text-xs text-zinc-500">
                  {formatTime(t.reportedAt)} · {t.failureCount} failures, {t.successCount} successes
                </span>
              </li>
            ))}
          </ol>
        )}
      </Card>

      <Card>
        <CardHeader
          title="Uptime, last 90 days"
          description="Per UTC day: time Down counts fully, time Recovering at 30 %."
        />
        <div className="px-5 py-4">
          <UptimeBars days={d.uptime} />
        </div>
      </Card>

      {tables}
    </div>
  );
}

const LABEL = { closed: "Healthy", open: "Down", half_open: "Recovering" } as const;

function Stat({ label, value, tone }: { label: string; value: string; tone?: "red" }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd
        className={cn(
          "mt-1 text-lg font-semibold tabular-nums text-zinc-900",
          tone === "red" && "text-red-700",
        )}
      >
        {value}
      </dd>
    </div>
  );
}
