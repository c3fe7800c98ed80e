"use client";

import type { IncidentDto } from "@breakwater/core";
import { formatDuration } from "@breakwater/core/fleet-status";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, XAxis, YAxis } from "recharts";
import { Button } from "@/components/ui/button";
import { type ChartConfig, ChartContainer, ChartTooltip } from "@/components/ui/chart";
import { type ColumnDef, DataTable } from "@/components/ui/data-table";
import { FormError, Hint, Input, Label } from "@/components/ui/form";
import { FleetIcon, LockIcon } from "@/components/ui/icons";
import { Card, CardHeader } from "@/components/ui/page";
import { EmptyState, ErrorState, LoadingState, QueryState } from "@/components/ui/states";
import { errorInfo } from "@/features/operator/format";
import { FieldError } from "@/features/operator/plans-console";
import { cn } from "@/lib/cn";
import { useTRPC } from "@/lib/trpc/client";

const pct = (share: number) => `${Math.round(share * 100)} %`;
const time = new Intl.DateTimeFormat("en-GB", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const when = (iso: string) => `${time.format(new Date(iso))} UTC`;
const providerHref = (i: Pick<IncidentDto, "projectId" | "provider">) =>
  `/fleet/${i.projectId}/${encodeURIComponent(i.provider)}`;

const SPARK: ChartConfig = { affected: { label: "Affected instances", color: "var(--color-red-500)" } };

/** Affected instances over the incident (Recharts), a step line so each change shows as it happened. */
export function IncidentSparkline({ incident, className }: { incident: IncidentDto; className?: string }) {
  const data = incident.samples.map((s) => ({ t: s.t, affected: s.affected }));
  if (data.length === 1) data.push({ t: Date.now(), affected: data[0]!.affected });
  return (
    <ChartContainer
      config={SPARK}
      label={`Affected instances over time, peak ${incident.peakCount}`}
      className={cn("h-9 w-28 shrink-0", className)}
    >
      <AreaChart data={data} margin={{ top: 2, right: 0, bottom: 0, left: 0 }}>
        <YAxis hide domain={[0, Math.max(1, incident.liveCount, incident.peakCount)]} />
        <XAxis hide dataKey="t" type="number" domain={["dataMin", "dataMax"]} />
        <Area
          type="stepAfter"
          dataKey="affected"
          stroke="var(--color-affected)"
          fill="var(--color-affected)"
          fillOpacity={0.15}
          strokeWidth={1.5}
          isAnimationActive={false}
        />
      </AreaChart>
    </ChartContainer>
  );
}

/**
 * The open incidents above the fleet grid, newest first: provider, project, since when, the share
 * affected and a sparkline. Refreshed by the fleet page's live stream (incidents are pushed on it).
 */
export function OpenIncidents({ now, polling }: { now: number; polling: boolean }) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.fleet.openIncidents.queryOptions(),
    placeholderData: (prev) => prev,
    refetchInterval: polling ? 5_000 : false,
  });
  if (q.isPending) return <LoadingState label="Loading open incidents" rows={1} />;
  if (q.isError && !q.data) {
    return (
      <ErrorState
        title="Open incidents could not be loaded"
        message={q.error.message}
        onRetry={() => void q.refetch()}
      />
    );
  }
  const list = q.data ?? [];
  return (
    <section aria-label="Open incidents" data-testid="open-incidents" data-count={list.length}>
      <div className="mb-2 flex items-center justify-between gap-3">
        <h2 className="text-[13px] font-semibold text-zinc-900">
          {list.length === 0 ? "No open incident" : `Open incidents (${list.length})`}
        </h2>
        <Link href="/fleet/incidents" className="text-xs font-medium text-brand-700 hover:underline">
          Incident history
        </Link>
      </div>
      {list.length === 0 ? null : (
        <ul className="space-y-2">
          {list.map((i) => (
            <li key={i.id}>
              <Link
                href={providerHref(i)}
                data-testid="open-incident"
                data-incident={i.id}
                data-provider={i.provider}
                data-project={i.projectId}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-red-200 bg-red-50/60 px-3 py-2.5 hover:border-red-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
              >
                <span className="flex min-w-0 flex-1 items-center gap-2">
                  <span className="size-2 shrink-0 rounded-full bg-red-500" aria-hidden />
                  <span className="min-w-0">
                    <span className="block truncate text-[13px] font-semibold text-zinc-900">
                      {i.provider} <span className="font-normal text-zinc-500">in</span> {i.projectName}
                    </span>
                    <span className="block text-xs text-zinc-600">
                      since {when(i.openedAt)} · {formatDuration((now - Date.parse(i.openedAt)) / 1000)}
                    </span>
                  </span>
                </span>
                <span className="text-right text-xs text-zinc-700" data-testid="incident-share">
                  <strong className="block text-[13px] font-semibold text-red-700">
                    {pct(i.affectedShare)}
                  </strong>
                  {i.affectedCount} of {i.liveCount} instances
                </span>
                <IncidentSparkline incident={i} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const MTTR: ChartConfig = { mttrMin: { label: "MTTR (min)", color: "var(--color-brand-500, #6366f1)" } };

const columns: ColumnDef<IncidentDto>[] = [
  {
    accessorKey: "provider",
    header: "Provider",
    cell: ({ row }) => (
      <Link href={providerHref(row.original)} className="font-medium text-zinc-900 hover:underline">
        {row.original.provider}
      </Link>
    ),
  },
  { accessorKey: "projectName", header: "Project" },
  {
    accessorKey: "openedAt",
    header: "Opened",
    cell: ({ row }) => <span className="whitespace-nowrap">{when(row.original.openedAt)}</span>,
  },
  {
    accessorKey: "durationSeconds",
    header: "Duration",
    cell: ({ row }) =>
      row.original.status === "open" ? (
        <span className="font-medium text-red-700">
          Open · {formatDuration(row.original.durationSeconds)}
        </span>
      ) : (
        formatDuration(row.original.durationSeconds)
      ),
  },
  {
    accessorKey: "peakShare",
    header: "Peak",
    cell: ({ row }) => `${pct(row.original.peakShare)} (${row.original.peakCount})`,
  },
  {
    accessorKey: "callsSaved",
    header: "Calls saved",
    cell: ({ row }) => row.original.callsSaved.toLocaleString("en-US"),
  },
  {
    id: "models",
    header: "Fallback models",
    enableSorting: false,
    cell: ({ row }) => (
      <span className="text-xs text-zinc-500">{row.original.fallbackModels.join(", ") || "—"}</span>
    ),
  },
];

/** /fleet/incidents: past and open incidents of 30 or 90 days, with MTTR per provider. */
export function IncidentHistory() {
  const trpc = useTRPC();
  const [days, setDays] = useState<30 | 90>(30);
  const q = useQuery({ ...trpc.fleet.incidents.queryOptions({ days }), placeholderData: (prev) => prev });
  return (
    <div className="space-y-4">
      <fieldset aria-label="Window" className="m-0 inline-flex rounded-md border border-zinc-200 p-0.5">
        {([30, 90] as const).map((d) => (
          <button
            key={d}
            type="button"
            aria-pressed={days === d}
            onClick={() => setDays(d)}
            className={cn(
              "rounded px-2.5 py-1 text-xs font-medium",
              days === d ? "bg-zinc-900 text-white" : "text-zinc-600 hover:bg-zinc-100",
            )}
          >
            {d} days
          </button>
        ))}
      </fieldset>
      <QueryState
        query={q}
        isEmpty={(d) => d.incidents.length === 0}
        empty={
          <EmptyState
            icon={<FleetIcon size={18} />}
            title={`No incident in the last ${days} days`}
            description="An incident opens when enough of a project's live instances have a provider's breaker Down (see the project's incident settings). Try it with: npm run -s bw -- simulate --project <id> --scenario outage."
          />
        }
      >
        {(d) => (
          <div className="space-y-4">
            <Card>
              <CardHeader
                title="Mean time to resolve"
                description={`Per provider, incidents opened in the last ${d.days} days (resolved ones).`}
              />
              <div className="px-3 pt-4 pb-2 md:px-5" data-testid="mttr-chart">
                <ChartContainer
                  config={MTTR}
                  label={`MTTR per provider: ${d.mttr
                    .map(
                      (m) =>
                        `${m.provider} ${m.mttrSeconds === null ? "none resolved" : formatDuration(m.mttrSeconds)}`,
                    )
                    .join(", ")}`}
                  className="h-44"
                >
                  <BarChart
                    data={d.mttr.map((m) => ({
                      ...m,
                      mttrMin: m.mttrSeconds === null ? 0 : m.mttrSeconds / 60,
                    }))}
                    margin={{ top: 4, right: 4, bottom: 0, left: -20 }}
                  >
                    <CartesianGrid vertical={false} stroke="var(--color-zinc-100)" />
                    <XAxis dataKey="provider" tickLine={false} axisLine={false} />
                    <YAxis tickLine={false} axisLine={false} allowDecimals />
                    <ChartTooltip config={MTTR} formatValue={(v) => formatDuration(v * 60)} />
                    <Bar
                      dataKey="mttrMin"
                      fill="var(--color-mttrMin)"
                      radius={[3, 3, 0, 0]}
                      maxBarSize={48}
                    />
                  </BarChart>
                </ChartContainer>
                <ul
                  className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600"
                  aria-label="MTTR per provider"
                >
                  {d.mttr.map((m) => (
                    <li key={m.provider} data-testid="mttr" data-provider={m.provider}>
                      <strong className="font-medium text-zinc-900">{m.provider}</strong>{" "}
                      {m.mttrSeconds === null ? "—" : formatDuration(m.mttrSeconds)} · {m.incidents} incident
                      {m.incidents === 1 ? "" : "s"}
                    </li>
                  ))}
                </ul>
              </div>
            </Card>
            <Card>
              <CardHeader title="Incidents" description="Newest first; click a provider for its page." />
              <div className="overflow-x-auto" data-testid="incident-table">
                <DataTable
                  columns={columns}
                  data={d.incidents}
                  getRowId={(r) => r.id}
                  caption="Provider incidents"
                />
              </div>
            </Card>
          </div>
        )}
      </QueryState>
    </div>
  );
}

/** The provider page's incidents of this project × provider, each with its episodes behind a disclosure. */
export function ProviderIncidents({
  incidents,
  episodesOf,
}: {
  incidents: IncidentDto[];
  episodesOf: (
    incidentId: string,
  ) => { id: string; sdkInstanceId: string; openedAt: string; closedAt: string | null }[];
}) {
  return (
    <Card>
      <CardHeader
        title="Incidents"
        description="One per outage of this provider in this project (last 90 days); the instances' episodes are grouped under it."
      />
      {incidents.length === 0 ? (
        <p className="px-5 py-4 text-[13px] text-zinc-500">No incident in the last 90 days.</p>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Incidents">
          {incidents.slice(0, 20).map((i) => {
            const eps = episodesOf(i.id);
            return (
              <li
                key={i.id}
                className="px-5 py-3 text-[13px]"
                data-testid="provider-incident"
                data-status={i.status}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="flex min-w-0 flex-wrap items-center gap-x-2">
                    <span
                      className={cn(
                        "size-2 rounded-full",
                        i.status === "open" ? "bg-red-500" : "bg-emerald-500",
                      )}
                      aria-hidden
                    />
                    <strong className="font-semibold text-zinc-900">
                      {i.status === "open" ? "Open" : "Resolved"}
                    </strong>
                    <span className="text-zinc-600">
                      {when(i.openedAt)} · {formatDuration(i.durationSeconds)} · peak {pct(i.peakShare)} (
                      {i.peakCount} of {i.liveCount})
                    </span>
                  </span>
                  <IncidentSparkline incident={i} />
                </div>
                <details className="mt-1.5">
                  <summary className="cursor-pointer text-xs font-medium text-zinc-600">
                    {eps.length} instance episode{eps.length === 1 ? "" : "s"} ·{" "}
                    {i.callsSaved.toLocaleString("en-US")} calls saved
                  </summary>
                  <ul className="mt-1 space-y-0.5 text-xs text-zinc-600">
                    {eps.map((e) => (
                      <li key={e.id} className="flex flex-wrap justify-between gap-2">
                        <code className="truncate">{e.sdkInstanceId}</code>
                        <span>
                          {when(e.openedAt)} → {e.closedAt ? when(e.closedAt) : "open"}
                        </span>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/** Threshold, minimum duration and quiet period of a project's incidents. */
export function IncidentSettingsForm({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.fleet.incidentSettings.queryOptions({ projectId }));
  return (
    <Card>
      <CardHeader
        title="Provider incidents"
        description="When the share of live instances with a provider's breaker Down reaches the threshold, one incident opens (and one page goes out) for the whole outage."
      />
      <QueryState query={settings} isEmpty={() => false}>
        {(data) => <IncidentFields projectId={projectId} initial={data} canManage={canManage} />}
      </QueryState>
    </Card>
  );
}

const numberOrNull = (raw: string) => (raw.trim() === "" ? null : Number(raw.trim()));

function IncidentFields({
  projectId,
  initial,
  canManage,
}: {
  projectId: string;
  initial: { thresholdPct: number | null; minDurationSeconds: number; quietSeconds: number };
  canManage: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const update = useMutation(
    trpc.fleet.updateIncidentSettings.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({
          queryKey: trpc.fleet.incidentSettings.queryKey({ projectId }),
        });
      },
    }),
  );
  const { message, fieldErrors } = errorInfo(update.error);
  return (
    <form
      aria-label="Incident settings"
      className="space-y-5 px-5 py-5"
      onSubmit={(e) => {
        e.preventDefault();
        if (!canManage) return;
        setSaved(false);
        const f = new FormData(e.currentTarget);
        update.mutate({
          projectId,
          thresholdPct: numberOrNull(String(f.get("threshold") ?? "")),
          minDurationSeconds: Number(String(f.get("min-duration") ?? "").trim() || "0"),
          quietSeconds: Number(String(f.get("quiet") ?? "").trim() || "0"),
        });
      }}
    >
      {!canManage ? (
        <p className="flex items-center gap-2 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-[13px] text-zinc-600">
          <LockIcon size={14} className="shrink-0" /> You can view these settings; members and up can change
          them.
        </p>
      ) : null}
      <fieldset disabled={!canManage} className="grid gap-5 sm:grid-cols-3">
        <div data-testid="field-threshold">
          <Label htmlFor="threshold">Threshold (% of live instances)</Label>
          <Input
            id="threshold"
            name="threshold"
            inputMode="numeric"
            placeholder="Default"
            defaultValue={initial.thresholdPct === null ? "" : String(initial.thresholdPct)}
            aria-invalid={fieldErrors.thresholdPct ? true : undefined}
          />
          <FieldError message={fieldErrors.thresholdPct} />
          <Hint>1–100 %. Empty: 1 instance while ≤ 2 are live, else 25 %.</Hint>
        </div>
        <div data-testid="field-min-duration">
          <Label htmlFor="min-duration">Minimum duration (s)</Label>
          <Input
            id="min-duration"
            name="min-duration"
            inputMode="numeric"
            defaultValue={String(initial.minDurationSeconds)}
            aria-invalid={fieldErrors.minDurationSeconds ? true : undefined}
          />
          <FieldError message={fieldErrors.minDurationSeconds} />
          <Hint>The threshold must hold this long before anyone is paged (flapping pages nothing).</Hint>
        </div>
        <div data-testid="field-quiet">
          <Label htmlFor="quiet">Quiet period (s)</Label>
          <Input
            id="quiet"
            name="quiet"
            inputMode="numeric"
            defaultValue={String(initial.quietSeconds)}
            aria-invalid={fieldErrors.quietSeconds ? true : undefined}
          />
          <FieldError message={fieldErrors.quietSeconds} />
          <Hint>The incident resolves once no instance has been Down this long.</Hint>
        </div>
      </fieldset>
      {canManage ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save incident settings"}
          </Button>
          {saved && !update.isPending ? (
            <span role="status" className="text-[13px] text-emerald-700">
              Saved
            </span>
          ) : null}
          {Object.keys(fieldErrors).length === 0 ? <FormError message={message || null} /> : null}
        </div>
      ) : null}
    </form>
  );
}
