"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { type ColumnDef, DataTable } from "@/components/ui/data-table";
import { Card, CardHeader } from "@/components/ui/page";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/cn";
import { type CsvColumn, csvFileName } from "./csv";
import { CsvButton } from "./csv-button";
import {
  formatCount,
  formatLatency,
  formatPercent,
  formatShare,
  formatUsd,
  isZeroDecimal,
  PERIOD_LABEL,
  REASON_LABEL,
  unpricedLabel,
} from "./format";
import type { UsageOverview } from "./types";
import { SpendRequestsChart } from "./usage-chart";

type Provider = UsageOverview["byProvider"][number];
type Model = UsageOverview["byModel"][number];
type Tag = UsageOverview["byTag"][number];
type Run = UsageOverview["byRun"][number];
type Reason = UsageOverview["failoversByReason"][number];
type Limit = UsageOverview["limits"][number];
type SeriesPoint = UsageOverview["series"][number];

export const GROUPINGS = ["provider", "model", "tag", "run"] as const;
export type Grouping = (typeof GROUPINGS)[number];
const GROUPING_LABEL: Record<Grouping, string> = {
  provider: "Providers",
  model: "Models",
  tag: "Tags",
  run: "Runs",
};

const money = (s: string) => <span title={`$${s}`}>{formatUsd(s)}</span>;
const num = (n: number) => <span className="tabular-nums">{formatCount(n)}</span>;
const sortMoney = (s: string | null) => (s === null ? -1 : Number(s));

/** Everything the usage page shows for one range, from one `usage.overview` answer. */
export function UsageDashboard({
  data,
  granularity,
  grouping,
  onGroupingChange,
  projectNames,
  scope,
}: {
  data: UsageOverview;
  granularity: "day" | "hour";
  grouping: Grouping;
  onGroupingChange: (g: Grouping) => void;
  /** Names for the run table's project column (org-wide page); absent on a project's own page. */
  projectNames?: Record<string, string>;
  /** A word for file names: the project's id on its page. */
  scope?: string;
}) {
  const t = data.totals;
  const file = (what: string) => csvFileName(what, data.range, scope);
  const unpricedTokens = t.unpricedInputTokens + t.unpricedOutputTokens;

  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-label="Totals">
        <Stat
          id="spend"
          label="Spend"
          value={formatUsd(t.costUsd)}
          raw={t.costUsd}
          note={t.unpricedCalls > 0 ? `+ ${unpricedLabel(unpricedTokens)}` : "priced from the catalogue"}
        />
        <Stat
          id="requests"
          label="Requests"
          value={formatCount(t.calls)}
          raw={String(t.calls)}
          note={`${formatCount(t.errors)} ${t.errors === 1 ? "error" : "errors"} · ${formatCount(t.deniedCalls)} denied`}
        />
        <Stat
          id="saved"
          label="Saved by a fallback"
          value={formatShare(t.savedByFallbackCalls, t.calls)}
          raw={String(t.savedByFallbackCalls)}
          note={`${formatCount(t.savedByFallbackCalls)} of ${formatCount(t.calls)} calls`}
        />
        <Stat
          id="avoided"
          label="Avoided cost"
          value={formatUsd(t.avoidedCostUsd)}
          raw={t.avoidedCostUsd}
          note={`${formatCount(t.deniedCalls)} denied ${t.deniedCalls === 1 ? "call" : "calls"}`}
        />
        <Stat
          id="unpriced"
          label="Unpriced usage"
          value={t.unpricedCalls > 0 ? unpricedLabel(unpricedTokens) : "None"}
          raw={String(unpricedTokens)}
          note={
            t.unpricedCalls > 0
              ? `${formatCount(t.unpricedCalls)} ${t.unpricedCalls === 1 ? "call" : "calls"} without a price card`
              : "every call was priced"
          }
          className="col-span-2 lg:col-span-1"
        />
      </dl>

      <Card>
        <CardHeader
          title="Spend and requests"
          description={`Per ${granularity === "hour" ? "hour" : "day"}, UTC. Bars: spend; line: requests.`}
          actions={
            <CsvButton<SeriesPoint>
              label="Download series CSV"
              fileName={file("series")}
              rows={data.series}
              columns={SERIES_CSV}
            />
          }
        />
        <div className="px-2 pt-4 pb-3 md:px-4">
          <SpendRequestsChart
            series={data.series}
            granularity={granularity}
            totalCalls={t.calls}
            totalCost={t.costUsd}
          />
        </div>
      </Card>

      {data.limits.length > 0 ? <Limits limits={data.limits} /> : null}

      <Card>
        <Tabs value={grouping} onValueChange={(v) => onGroupingChange(v as Grouping)}>
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-100 px-5 py-3">
            <h2 className="text-[14px] font-semibold text-zinc-900">Breakdown</h2>
            <TabsList aria-label="Group by">
              {GROUPINGS.map((g) => (
                <TabsTrigger key={g} value={g}>
                  {GROUPING_LABEL[g]}
                </TabsTrigger>
              ))}
            </TabsList>
          </div>
          <TabsContent value="provider" className="mt-0">
            <Breakdown
              caption="Usage by provider"
              description="Latency percentiles come from the hourly rollups' latency histograms."
              csv={
                <CsvButton<Provider>
                  label="Download providers CSV"
                  fileName={file("providers")}
                  rows={data.byProvider}
                  columns={PROVIDER_CSV}
                />
              }
            >
              <DataTable
                caption="Usage by provider"
                columns={providerColumns(data.byModel)}
                data={data.byProvider}
                getRowId={(r) => r.provider}
                initialSorting={[{ id: "calls", desc: true }]}
                empty="No calls in this range."
              />
            </Breakdown>
          </TabsContent>
          <TabsContent value="model" className="mt-0">
            <Breakdown
              caption="Usage by model"
              description="Models without a price card are counted in tokens, never as $0."
              csv={
                <CsvButton<Model>
                  label="Download models CSV"
                  fileName={file("models")}
                  rows={data.byModel}
                  columns={MODEL_CSV}
                />
              }
            >
              <DataTable
                caption="Usage by model"
                columns={modelColumns}
                data={data.byModel}
                getRowId={(r) => `${r.provider}/${r.model}`}
                initialSorting={[{ id: "calls", desc: true }]}
                empty="No calls in this range."
              />
            </Breakdown>
          </TabsContent>
          <TabsContent value="tag" className="mt-0">
            <Breakdown
              caption="Usage by tag"
              description="A call with several tags counts once under each of them."
              csv={
                <CsvButton<Tag>
                  label="Download tags CSV"
                  fileName={file("tags")}
                  rows={data.byTag}
                  columns={TAG_CSV}
                />
              }
            >
              <DataTable
                caption="Usage by tag"
                columns={tagColumns}
                data={data.byTag}
                getRowId={(r) => `${r.key}=${r.value}`}
                initialSorting={[{ id: "calls", desc: true }]}
                empty="No tagged calls in this range."
              />
            </Breakdown>
          </TabsContent>
          <TabsContent value="run" className="mt-0">
            <Breakdown
              caption="Usage by run"
              description="Agent runs; calls without a run id count under the SDK instance's daily run."
              csv={
                <CsvButton<Run>
                  label="Download runs CSV"
                  fileName={file("runs")}
                  rows={data.byRun}
                  columns={runCsv(projectNames)}
                />
              }
            >
              <DataTable
                caption="Usage by run"
                columns={runColumns(projectNames)}
                data={data.byRun}
                getRowId={(r) => `${r.projectId}/${r.agentRunId}`}
                initialSorting={[{ id: "calls", desc: true }]}
                empty="No runs in this range."
              />
            </Breakdown>
          </TabsContent>
        </Tabs>
      </Card>

      <Card>
        <CardHeader
          title="Failovers by reason"
          description={`${formatCount(t.fallbackCalls)} ${t.fallbackCalls === 1 ? "call" : "calls"} served by a fallback; ${formatCount(t.savedByFallbackCalls)} of them succeeded (${formatShare(t.savedByFallbackCalls, t.calls)} of all calls saved).`}
          actions={
            <CsvButton<Reason>
              label="Download failovers CSV"
              fileName={file("failovers")}
              rows={data.failoversByReason}
              columns={REASON_CSV}
            />
          }
        />
        <DataTable
          caption="Failovers by reason"
          columns={reasonColumns}
          data={data.failoversByReason}
          getRowId={(r) => r.reason}
          initialSorting={[{ id: "calls", desc: true }]}
          empty="No failover in this range."
        />
      </Card>
    </div>
  );
}

function Stat({
  id,
  label,
  value,
  raw,
  note,
  className,
}: {
  id: string;
  label: string;
  value: string;
  raw: string;
  note: string;
  className?: string;
}) {
  return (
    <div
      className={cn("min-w-0 rounded-lg border border-zinc-200 bg-white px-4 py-3 shadow-xs", className)}
      data-testid={`stat-${id}`}
      data-value={raw}
    >
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd
        className="mt-1 text-lg leading-snug font-semibold tabular-nums text-balance text-zinc-900"
        data-testid="stat-value"
      >
        {value}
      </dd>
      <dd className="mt-0.5 truncate text-xs text-zinc-500" data-testid="stat-note">
        {note}
      </dd>
    </div>
  );
}

function Breakdown({
  caption,
  description,
  csv,
  children,
}: {
  caption: string;
  description: string;
  csv: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={caption}>
      <div className="flex items-center justify-between gap-3 px-5 py-2.5">
        <p className="text-xs text-zinc-500">{description}</p>
        {csv}
      </div>
      {children}
    </section>
  );
}

/** Period spend against each limit, as progress bars. */
export function Limits({ limits }: { limits: Limit[] }) {
  return (
    <Card>
      <CardHeader title="Limits" description="Spend in each limit's current period (UTC)." />
      <ul className="divide-y divide-zinc-100" aria-label="Limits">
        {limits.map((l) => {
          const label = `${l.projectName}, ${PERIOD_LABEL[l.period] ?? l.period} limit`;
          const width = Math.min(100, Math.max(0, l.percent));
          return (
            <li
              key={`${l.projectId}/${l.period}`}
              className="grid gap-1.5 px-5 py-3 text-[13px]"
              data-testid="limit"
              data-project={l.projectId}
              data-period={l.period}
            >
              <div className="flex flex-col gap-x-3 sm:flex-row sm:items-baseline sm:justify-between">
                <span className="min-w-0 truncate font-medium text-zinc-800">
                  {l.projectName}{" "}
                  <span className="font-normal text-zinc-500">· {PERIOD_LABEL[l.period] ?? l.period}</span>
                </span>
                <span className="text-zinc-600 tabular-nums" data-testid="limit-spent">
                  {formatUsd(l.spentUsd)} of {formatUsd(l.limitUsd)}
                  <span className="ml-2 text-zinc-400">{formatPercent(l.percent)}</span>
                </span>
              </div>
              <div
                role="progressbar"
                aria-label={label}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(l.percent)}
                aria-valuetext={`${formatUsd(l.spentUsd)} of ${formatUsd(l.limitUsd)}`}
                className="h-2 overflow-hidden rounded-full bg-zinc-100"
              >
                <div
                  className={cn(
                    "h-full rounded-full",
                    l.percent >= 100 ? "bg-red-500" : l.percent >= 80 ? "bg-amber-500" : "bg-brand-500",
                  )}
                  style={{ width: `${width}%` }}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

// Columns -------------------------------------------------------------------------------------

/**
 * Tokens of a provider's unpriced calls, from the model rows the catalogue could not price at all;
 * null when some unpriced calls sit in models that were priced at other times (no token split).
 */
export function unpricedTokensOf(provider: Provider, models: Model[]): number | null {
  let calls = 0;
  let tokens = 0;
  for (const m of models) {
    // Only models whose every call ran unpriced (no denied call mixing its tokens in).
    if (m.provider !== provider.provider || m.costUsd !== null || m.unpricedCalls !== m.calls) continue;
    calls += m.unpricedCalls;
    tokens += m.inputTokens + m.outputTokens;
  }
  return calls === provider.unpricedCalls ? tokens : null;
}

function providerColumns(models: Model[]): ColumnDef<Provider>[] {
  return [
    {
      accessorKey: "provider",
      header: "Provider",
      cell: ({ row }) => <Strong>{row.original.provider}</Strong>,
    },
    { id: "calls", accessorKey: "calls", header: "Calls", cell: ({ row }) => num(row.original.calls) },
    { accessorKey: "errors", header: "Errors", cell: ({ row }) => num(row.original.errors) },
    {
      id: "cost",
      accessorFn: (r) => sortMoney(r.unpricedCalls > 0 && isZeroDecimal(r.costUsd) ? null : r.costUsd),
      header: "Spend",
      cell: ({ row }) => (
        <SpendCell
          costUsd={row.original.costUsd}
          unpricedCalls={row.original.unpricedCalls}
          unpricedTokens={unpricedTokensOf(row.original, models)}
        />
      ),
    },
    {
      id: "p50",
      accessorFn: (r) => r.p50LatencyMs ?? -1,
      header: "p50",
      cell: ({ row }) => formatLatency(row.original.p50LatencyMs),
    },
    {
      id: "p95",
      accessorFn: (r) => r.p95LatencyMs ?? -1,
      header: "p95",
      cell: ({ row }) => formatLatency(row.original.p95LatencyMs),
    },
  ];
}

const modelColumns: ColumnDef<Model>[] = [
  {
    id: "model",
    accessorFn: (r) => `${r.provider}/${r.model}`,
    header: "Model",
    cell: ({ row }) => (
      <span className="block max-w-[22rem] min-w-0">
        <Strong>{row.original.model}</Strong>
        <span className="block text-[11px] text-zinc-500">{row.original.provider}</span>
      </span>
    ),
  },
  { id: "calls", accessorKey: "calls", header: "Calls", cell: ({ row }) => num(row.original.calls) },
  { accessorKey: "inputTokens", header: "Input tokens", cell: ({ row }) => num(row.original.inputTokens) },
  { accessorKey: "outputTokens", header: "Output tokens", cell: ({ row }) => num(row.original.outputTokens) },
  {
    id: "cost",
    accessorFn: (r) => sortMoney(r.costUsd),
    header: "Spend",
    cell: ({ row }) => {
      const r = row.original;
      if (r.costUsd === null)
        return (
          <span className="text-amber-800" data-testid="unpriced">
            {r.unpricedCalls === r.calls
              ? unpricedLabel(r.inputTokens + r.outputTokens)
              : `${formatCount(r.unpricedCalls)} unpriced ${r.unpricedCalls === 1 ? "call" : "calls"}`}
          </span>
        );
      return <SpendCell costUsd={r.costUsd} unpricedCalls={r.unpricedCalls} unpricedTokens={null} />;
    },
  },
];

const tagColumns: ColumnDef<Tag>[] = [
  {
    accessorKey: "key",
    header: "Key",
    cell: ({ row }) => <code className="text-xs">{row.original.key}</code>,
  },
  {
    accessorKey: "value",
    header: "Value",
    cell: ({ row }) => <span className="block max-w-[18rem] truncate">{row.original.value}</span>,
  },
  { id: "calls", accessorKey: "calls", header: "Calls", cell: ({ row }) => num(row.original.calls) },
  {
    id: "cost",
    accessorFn: (r) => sortMoney(r.unpricedCalls > 0 && isZeroDecimal(r.costUsd) ? null : r.costUsd),
    header: "Spend",
    cell: ({ row }) => {
      const r = row.original;
      return (
        <SpendCell
          costUsd={r.costUsd}
          unpricedCalls={r.unpricedCalls}
          unpricedTokens={r.unpricedCalls === r.calls ? r.inputTokens + r.outputTokens : null}
        />
      );
    },
  },
];

function runColumns(projectNames?: Record<string, string>): ColumnDef<Run>[] {
  const cols: ColumnDef<Run>[] = [
    {
      id: "run",
      accessorFn: (r) => r.name ?? r.agentRunId,
      header: "Run",
      cell: ({ row }) => {
        const r = row.original;
        return (
          <Link
            href={`/projects/${r.projectId}/runs?run=${encodeURIComponent(r.agentRunId)}`}
            className="block max-w-[20rem] min-w-28 hover:underline"
          >
            <span className="block truncate font-medium text-zinc-900">{r.name ?? r.agentRunId}</span>
            {r.name ? <code className="block truncate text-[11px] text-zinc-500">{r.agentRunId}</code> : null}
          </Link>
        );
      },
    },
  ];
  if (projectNames)
    cols.push({
      id: "project",
      accessorFn: (r) => projectNames[r.projectId] ?? r.projectId,
      header: "Project",
      cell: ({ row }) => (
        <span className="whitespace-nowrap">
          {projectNames[row.original.projectId] ?? row.original.projectId}
        </span>
      ),
    });
  cols.push(
    { id: "calls", accessorKey: "calls", header: "Calls", cell: ({ row }) => num(row.original.calls) },
    {
      id: "cost",
      accessorFn: (r) => sortMoney(r.costUsd),
      header: "Spend",
      cell: ({ row }) => money(row.original.costUsd),
    },
    {
      id: "avoided",
      accessorFn: (r) => sortMoney(r.avoidedCostUsd),
      header: "Avoided",
      cell: ({ row }) => money(row.original.avoidedCostUsd),
    },
    {
      id: "status",
      accessorFn: (r) => (r.stopped ? 1 : 0),
      header: "Status",
      cell: ({ row }) =>
        row.original.stopped ? <Badge tone="red">Stopped</Badge> : <span className="text-zinc-400">—</span>,
    },
  );
  return cols;
}

const reasonColumns: ColumnDef<Reason>[] = [
  {
    accessorKey: "reason",
    header: "Reason",
    cell: ({ row }) => <Strong>{REASON_LABEL[row.original.reason] ?? row.original.reason}</Strong>,
  },
  { id: "calls", accessorKey: "calls", header: "Calls", cell: ({ row }) => num(row.original.calls) },
  { accessorKey: "saved", header: "Saved", cell: ({ row }) => num(row.original.saved) },
  {
    id: "share",
    accessorFn: (r) => (r.calls ? r.saved / r.calls : 0),
    header: "Saved share",
    cell: ({ row }) => formatShare(row.original.saved, row.original.calls),
  },
];

function Strong({ children }: { children: ReactNode }) {
  return <span className="font-medium whitespace-nowrap text-zinc-900">{children}</span>;
}

/** Spend of a row; calls the catalogue could not price are named, never folded in as $0. */
function SpendCell({
  costUsd,
  unpricedCalls,
  unpricedTokens,
}: {
  costUsd: string;
  unpricedCalls: number;
  /** Tokens of the unpriced calls when known. */
  unpricedTokens: number | null;
}) {
  const unpriced =
    unpricedTokens !== null
      ? unpricedLabel(unpricedTokens)
      : `${formatCount(unpricedCalls)} unpriced ${unpricedCalls === 1 ? "call" : "calls"}`;
  if (unpricedCalls > 0 && isZeroDecimal(costUsd))
    return (
      <span className="whitespace-nowrap text-amber-800" data-testid="unpriced">
        {unpriced}
      </span>
    );
  return (
    <span className="whitespace-nowrap">
      {money(costUsd)}
      {unpricedCalls > 0 ? <span className="ml-1.5 text-[11px] text-amber-800">+ {unpriced}</span> : null}
    </span>
  );
}

// CSV -----------------------------------------------------------------------------------------

const SERIES_CSV: CsvColumn<SeriesPoint>[] = [
  { header: "bucket", value: (r) => r.bucket },
  { header: "calls", value: (r) => r.calls },
  { header: "cost_usd", value: (r) => r.costUsd },
  { header: "denied_calls", value: (r) => r.deniedCalls },
  { header: "fallback_calls", value: (r) => r.fallbackCalls },
  { header: "unpriced_calls", value: (r) => r.unpricedCalls },
];

const PROVIDER_CSV: CsvColumn<Provider>[] = [
  { header: "provider", value: (r) => r.provider },
  { header: "calls", value: (r) => r.calls },
  { header: "errors", value: (r) => r.errors },
  { header: "cost_usd", value: (r) => r.costUsd },
  { header: "unpriced_calls", value: (r) => r.unpricedCalls },
  { header: "p50_latency_ms", value: (r) => r.p50LatencyMs },
  { header: "p95_latency_ms", value: (r) => r.p95LatencyMs },
];

const MODEL_CSV: CsvColumn<Model>[] = [
  { header: "provider", value: (r) => r.provider },
  { header: "model", value: (r) => r.model },
  { header: "calls", value: (r) => r.calls },
  { header: "input_tokens", value: (r) => r.inputTokens },
  { header: "output_tokens", value: (r) => r.outputTokens },
  // Unpriced stays empty, never 0.
  { header: "cost_usd", value: (r) => r.costUsd },
  { header: "unpriced_calls", value: (r) => r.unpricedCalls },
];

const TAG_CSV: CsvColumn<Tag>[] = [
  { header: "key", value: (r) => r.key },
  { header: "value", value: (r) => r.value },
  { header: "calls", value: (r) => r.calls },
  { header: "input_tokens", value: (r) => r.inputTokens },
  { header: "output_tokens", value: (r) => r.outputTokens },
  { header: "cost_usd", value: (r) => r.costUsd },
  { header: "unpriced_calls", value: (r) => r.unpricedCalls },
];

function runCsv(projectNames?: Record<string, string>): CsvColumn<Run>[] {
  return [
    { header: "project_id", value: (r) => r.projectId },
    ...(projectNames
      ? [{ header: "project", value: (r: Run) => projectNames[r.projectId] ?? null } satisfies CsvColumn<Run>]
      : []),
    { header: "agent_run_id", value: (r) => r.agentRunId },
    { header: "name", value: (r) => r.name },
    { header: "calls", value: (r) => r.calls },
    { header: "cost_usd", value: (r) => r.costUsd },
    { header: "avoided_cost_usd", value: (r) => r.avoidedCostUsd },
    { header: "stopped", value: (r) => r.stopped },
  ];
}

const REASON_CSV: CsvColumn<Reason>[] = [
  { header: "reason", value: (r) => r.reason },
  { header: "calls", value: (r) => r.calls },
  { header: "saved", value: (r) => r.saved },
];
