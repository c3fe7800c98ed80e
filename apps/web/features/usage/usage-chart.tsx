"use client";

import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import { type ChartConfig, ChartContainer } from "@/components/ui/chart";
import { bucketLabel, formatCount, formatUsd } from "./format";
import type { UsageOverview } from "./types";

const CONFIG: ChartConfig = {
  cost: { label: "Spend", color: "var(--color-brand-500)" },
  calls: { label: "Requests", color: "var(--color-zinc-700)" },
};

type Point = {
  label: string;
  cost: number;
  calls: number;
  costUsd: string;
  denied: number;
  fallback: number;
};

/** Spend (bars, left axis) and requests (line, right axis) per bucket. */
export function SpendRequestsChart({
  series,
  granularity,
  totalCalls,
  totalCost,
}: {
  series: UsageOverview["series"];
  granularity: "day" | "hour";
  totalCalls: number;
  totalCost: string;
}) {
  const data: Point[] = series.map((s) => ({
    label: bucketLabel(s.bucket, granularity),
    // Floats only to size the bars; every figure shown comes from the decimal string.
    cost: Number(s.costUsd),
    calls: s.calls,
    costUsd: s.costUsd,
    denied: s.deniedCalls,
    fallback: s.fallbackCalls,
  }));
  // Wide enough for the longest spend tick ("$0.00075" on a tiny total), no wider: a fixed 56 px cut
  // the dollar sign off small amounts. Recharts picks quarter steps, so a tick at 3/4 of the maximum
  // is as long as any; about 7 px per character at the axis's font size.
  const maxCost = Math.max(0, ...data.map((d) => d.cost));
  const longestTick = Math.max(
    ...[maxCost, maxCost * 0.75, maxCost * 0.25].map((v) => formatUsd(v.toFixed(10)).length),
  );
  const costAxisWidth = Math.min(96, Math.max(40, 10 + 7 * longestTick));
  return (
    <ChartContainer
      config={CONFIG}
      label={`Spend and requests per ${granularity}: ${formatUsd(totalCost)} over ${formatCount(totalCalls)} requests`}
      className="h-60"
    >
      <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} barCategoryGap={2}>
        <CartesianGrid vertical={false} stroke="var(--color-zinc-100)" />
        <XAxis
          dataKey="label"
          tickLine={false}
          axisLine={false}
          minTickGap={28}
          tick={{ fill: "var(--color-zinc-400)" }}
        />
        <YAxis
          yAxisId="cost"
          tickLine={false}
          axisLine={false}
          width={costAxisWidth}
          tickFormatter={(v: number) => formatUsd(v.toFixed(10))}
          tick={{ fill: "var(--color-zinc-400)" }}
        />
        <YAxis
          yAxisId="calls"
          orientation="right"
          allowDecimals={false}
          tickLine={false}
          axisLine={false}
          width={40}
          tick={{ fill: "var(--color-zinc-400)" }}
        />
        <Tooltip cursor={{ fill: "var(--color-zinc-100)" }} content={<PointTooltip />} />
        <Bar
          yAxisId="cost"
          dataKey="cost"
          fill="var(--color-cost)"
          radius={[2, 2, 0, 0]}
          isAnimationActive={false}
        />
        <Line
          yAxisId="calls"
          dataKey="calls"
          type="monotone"
          stroke="var(--color-calls)"
          strokeWidth={1.5}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ChartContainer>
  );
}

function PointTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: Point }[] }) {
  const p = payload?.[0]?.payload;
  if (!active || !p) return null;
  return (
    <div className="rounded-md border border-zinc-200 bg-white px-2.5 py-1.5 text-xs shadow-md">
      <p className="mb-1 font-medium text-zinc-900">{p.label}</p>
      <Row color={CONFIG.cost?.color} label="Spend" value={formatUsd(p.costUsd)} />
      <Row color={CONFIG.calls?.color} label="Requests" value={formatCount(p.calls)} />
      {p.fallback ? <Row label="Via a fallback" value={formatCount(p.fallback)} /> : null}
      {p.denied ? <Row label="Denied" value={formatCount(p.denied)} /> : null}
    </div>
  );
}

function Row({ color, label, value }: { color?: string; label: string; value: string }) {
  return (
    <p className="flex items-center gap-1.5 text-zinc-600">
      <span className="size-2 rounded-sm" style={{ background: color ?? "transparent" }} />
      {label}
      <span className="ml-auto pl-3 font-medium text-zinc-900 tabular-nums">{value}</span>
    </p>
  );
}
