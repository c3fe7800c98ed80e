"use client";

import type { AppRouter } from "@breakwater/api";
import { formatDuration } from "@breakwater/core/fleet-status";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { ColumnDef } from "@/components/ui/data-table";
import { FailoverIcon, FleetIcon } from "@/components/ui/icons";
import { FILTER_ALL, FilterSelect, infiniteRows, KeysetTable } from "@/components/ui/keyset-table";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { useTRPC } from "@/lib/trpc/client";
import { StatusLabel } from "./status";
import { POLL_MS } from "./use-fleet-live";

type Outputs = inferRouterOutputs<AppRouter>["fleet"];
type Instance = Outputs["providerInstances"]["instances"][number];
type Failover = Outputs["failoverFeed"]["items"][number];
type InstanceFilter = "Healthy" | "Down" | "Recovering" | "Stale";

const INSTANCE_FILTERS: { value: InstanceFilter; label: string }[] = [
  { value: "Healthy", label: "Healthy" },
  { value: "Down", label: "Down" },
  { value: "Recovering", label: "Recovering" },
  { value: "Stale", label: "Stale" },
];

/** Instances loaded a page at a time; "Load more" adds the next. */
export const INSTANCES_PAGE = 50;
export const FEED_PAGE = 25;

const time = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
export const formatTime = (iso: string) => `${time.format(new Date(iso))} UTC`;
const age = (iso: string, now: number) => `${formatDuration(Math.max(0, now - Date.parse(iso)) / 1000)} ago`;

/**
 * The provider's instances in this project, filtered by status, a keyset page at a time. A change
 * pushed on the live stream refetches the pages loaded so far (they stay on screen meanwhile, so
 * the list does not jump); while the stream is down it polls like the rest of the page.
 */
export function InstanceTable({
  projectId,
  provider,
  staleAfterSeconds,
  polling,
  now,
}: {
  projectId: string;
  provider: string;
  staleAfterSeconds: number | undefined;
  polling: boolean;
  now: number;
}) {
  const trpc = useTRPC();
  const [status, setStatus] = useState(FILTER_ALL);
  const filter = status === FILTER_ALL ? undefined : (status as InstanceFilter);
  const query = useInfiniteQuery(
    trpc.fleet.providerInstances.infiniteQueryOptions(
      { projectId, provider, status: filter ?? "all", limit: INSTANCES_PAGE },
      {
        getNextPageParam: (last) => last.nextCursor ?? undefined,
        refetchInterval: polling ? POLL_MS : false,
      },
    ),
  );
  const columns: ColumnDef<Instance>[] = [
    {
      header: "Instance",
      cell: ({ row }) => <code className="text-xs">{row.original.sdkInstanceId}</code>,
      meta: { cellClassName: "max-w-[16rem] truncate" },
    },
    {
      header: "State",
      cell: ({ row: { original: i } }) => (
        <span className="whitespace-nowrap">
          <StatusLabel status={i.stale ? "Stale" : i.label} />
          {i.unprobed ? (
            <span className="ml-2 text-xs text-amber-800" data-testid="not-reprobed">
              not re-probed
            </span>
          ) : null}
        </span>
      ),
    },
    {
      header: () => <span className="block text-right">Failures</span>,
      id: "failures",
      cell: ({ row }) => row.original.failureCount,
      meta: { cellClassName: "text-right tabular-nums" },
    },
    {
      header: () => <span className="block text-right">Successes</span>,
      id: "successes",
      cell: ({ row }) => row.original.successCount,
      meta: { cellClassName: "text-right tabular-nums" },
    },
    {
      header: "Last report",
      cell: ({ row }) => (
        <time dateTime={row.original.lastSeenAt} title={formatTime(row.original.lastSeenAt)}>
          {age(row.original.lastSeenAt, now)}
        </time>
      ),
      meta: { cellClassName: "whitespace-nowrap text-zinc-500" },
    },
  ];
  const staleAfter = staleAfterSeconds === undefined ? "" : formatDuration(staleAfterSeconds);
  return (
    <section data-testid="instances">
      <Card>
        <CardHeader
          title="Instances"
          description={`Stale after ${staleAfter} without a report: greyed and left out of status.`}
        />
        <KeysetTable
          inset
          query={infiniteRows(query, (page) => page.instances, { keepRowsOnRefetchError: true })}
          columns={columns}
          label="Instances"
          getRowId={(i) => i.sdkInstanceId}
          rowClassName={(i) => (i.stale ? "text-zinc-400" : undefined)}
          rowAttributes={(i) => ({
            "data-testid": "instance-row",
            "data-instance": i.sdkInstanceId,
            "data-stale": String(i.stale),
          })}
          toolbar={
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              <FilterSelect label="Status" value={status} onChange={setStatus} options={INSTANCE_FILTERS} />
            </div>
          }
          loading={<LoadingState label="Loading instances" rows={4} />}
          empty={
            <EmptyState
              icon={<FleetIcon size={18} />}
              title={filter ? `No ${filter.toLowerCase()} instance` : "No instance has reported"}
              description={
                filter === "Stale"
                  ? `Every instance of ${provider} here has reported in the last ${staleAfter}.`
                  : filter
                    ? `No live instance of ${provider} here is ${filter} now. Choose All to see every instance.`
                    : `No SDK instance has reported ${provider} in this project. Instances appear with their first breaker report.`
              }
            />
          }
          loadMoreLabel="Load more instances"
        />
      </Card>
    </section>
  );
}

/**
 * Calls of the last 24 h where a fallback stepped in for this provider or it served for another,
 * newest first, a keyset page at a time; refreshed with the page's live updates.
 */
export function FailoverFeed({
  projectId,
  provider,
  savedCalls24h,
  polling,
}: {
  projectId: string;
  provider: string;
  savedCalls24h: number | undefined;
  polling: boolean;
}) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.fleet.failoverFeed.infiniteQueryOptions(
      { projectId, provider, limit: FEED_PAGE },
      {
        getNextPageParam: (last) => last.nextCursor ?? undefined,
        refetchInterval: polling ? POLL_MS : false,
      },
    ),
  );
  const columns: ColumnDef<Failover>[] = [
    {
      header: "Time",
      cell: ({ row }) => formatTime(row.original.timestamp),
      meta: { cellClassName: "whitespace-nowrap text-zinc-600" },
    },
    {
      header: "Requested → served",
      id: "call",
      cell: ({ row: { original: f } }) => (
        <span className="whitespace-nowrap">
          <span className="font-medium text-zinc-800">
            {f.requestedProvider ?? "?"}/{f.requestedModel ?? "?"}
          </span>
          <span aria-hidden className="mx-1.5 text-zinc-400">
            →
          </span>
          <span className="sr-only">served by</span>
          <span className="font-medium text-zinc-800">
            {f.servedProvider}/{f.servedModel}
          </span>
        </span>
      ),
    },
    {
      header: "Reason",
      cell: ({ row: { original: f } }) => (
        <span className="text-xs text-zinc-500">
          {f.reason ?? "fallback"}
          {f.status !== "success" ? ` · ${f.status}` : ""}
        </span>
      ),
      meta: { cellClassName: "whitespace-nowrap" },
    },
    {
      header: () => <span className="block text-right">Latency</span>,
      id: "latency",
      cell: ({ row }) => `${row.original.latencyMs.toLocaleString("en-US")} ms`,
      meta: { cellClassName: "whitespace-nowrap text-right tabular-nums text-zinc-600" },
    },
    {
      header: "Instance",
      cell: ({ row }) => <code className="text-xs text-zinc-500">{row.original.sdkInstanceId}</code>,
      meta: { cellClassName: "max-w-[14rem] truncate" },
    },
  ];
  const saved = savedCalls24h ?? 0;
  return (
    <section data-testid="failovers">
      <Card>
        <CardHeader
          title="Failover feed"
          description={`Calls of the last 24 h where a fallback stepped in for ${provider} or ${provider} served for another. ${saved.toLocaleString("en-US")} ${saved === 1 ? "call" : "calls"} saved by a fallback.`}
        />
        <KeysetTable
          inset
          query={infiniteRows(query, (page) => page.items, { keepRowsOnRefetchError: true })}
          columns={columns}
          label="Failover feed"
          getRowId={(f) => f.id}
          rowAttributes={(f) => ({ "data-testid": "failover", "data-instance": f.sdkInstanceId })}
          loading={<LoadingState label="Loading the failover feed" rows={3} />}
          empty={
            <EmptyState
              icon={<FailoverIcon size={18} />}
              title="No failover in the last 24 hours"
              description={`Calls a fallback served in place of ${provider}, or that ${provider} served for another provider, appear here as the SDK reports them.`}
            />
          }
          loadMoreLabel="Load older failovers"
        />
      </Card>
    </section>
  );
}
