"use client";

import type { TimelineBucket, UptimeDay } from "@breakwater/core/fleet-status";
import { formatDuration } from "@breakwater/core/fleet-status";
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from "recharts";
import { type ChartConfig, ChartContainer, ChartTooltip } from "@/components/ui/chart";
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/cn";

const tick = (iso: string, range: "24h" | "7d" | "30d") => {
  const d = new Date(iso);
  const hm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  const day = `${d.toLocaleString("en-US", { month: "short", timeZone: "UTC" })} ${d.getUTCDate()}`;
  return range === "24h" ? hm : range === "7d" ? `${day} ${hm}` : day;
};

const TIMELINE: ChartConfig = {
  down: { label: "To Down", color: "var(--color-red-500)" },
  recovering: { label: "To Recovering", color: "var(--color-amber-400)" },
  healthy: { label: "To Healthy", color: "var(--color-emerald-500)" },
};

/** Transitions into Down / Recovering / Healthy per time bucket, as stacked bars (Recharts). */
export function TimelineChart({
  buckets,
  range,
}: {
  buckets: TimelineBucket[];
  range: "24h" | "7d" | "30d";
}) {
  const total = buckets.reduce((n, b) => n + b.down + b.recovering + b.healthy, 0);
  const data = buckets.map((b) => ({ ...b, label: tick(b.at, range) }));
  return (
    <figure aria-label="Transition timeline" data-testid="timeline" data-total={total} className="m-0">
      <ChartContainer
        config={TIMELINE}
        label={`Breaker transitions per ${range === "24h" ? "30 minutes" : range === "7d" ? "4 hours" : "day"}: ${total} in total`}
        className="h-44"
      >
        <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -24 }} barCategoryGap={1}>
          <CartesianGrid vertical={false} stroke="var(--color-zinc-100)" />
          <XAxis
            dataKey="label"
            tickLine={false}
            axisLine={false}
            minTickGap={24}
            tick={{ fill: "var(--color-zinc-400)" }}
          />
          <YAxis
            allowDecimals={false}
            tickLine={false}
            axisLine={false}
            width={48}
            tick={{ fill: "var(--color-zinc-400)" }}
          />
          <ChartTooltip config={TIMELINE} />
          <Bar dataKey="down" stackId="t" fill="var(--color-down)" isAnimationActive={false} />
          <Bar dataKey="recovering" stackId="t" fill="var(--color-recovering)" isAnimationActive={false} />
          <Bar
            dataKey="healthy"
            stackId="t"
            fill="var(--color-healthy)"
            isAnimationActive={false}
            radius={[2, 2, 0, 0]}
          />
        </BarChart>
      </ChartContainer>
      <figcaption className="mt-1 text-right text-[11px] text-zinc-400">
        {total} transitions in this range
      </figcaption>
    </figure>
  );
}

const uptimeText = (d: UptimeDay) =>
  `${d.day}: ${(d.uptime * 100).toFixed(2)} % up${d.downSeconds ? `, Down ${formatDuration(d.downSeconds)}` : ""}${
    d.recoveringSeconds ? `, Recovering ${formatDuration(d.recoveringSeconds)}` : ""
  }`;

/** One bar per UTC day, coloured by uptime, each with a tooltip (hover or keyboard focus). */
export function UptimeBars({ days }: { days: UptimeDay[] }) {
  const avg = days.length ? days.reduce((n, d) => n + d.uptime, 0) / days.length : 1;
  return (
    <TooltipProvider delayDuration={100}>
      <ol className="m-0 flex h-10 list-none items-stretch gap-px p-0" aria-label="Daily uptime">
        {days.map((d) => (
          <li key={d.day} className="flex min-w-0 flex-1">
            <Tooltip>
              <TooltipTrigger asChild>
                <button
                  type="button"
                  aria-label={uptimeText(d)}
                  className={cn(
                    "w-full rounded-[1px] focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500",
                    d.uptime >= 0.999 ? "bg-emerald-500" : d.uptime >= 0.99 ? "bg-amber-400" : "bg-red-500",
                  )}
                />
              </TooltipTrigger>
              <TooltipContent>
                <span className="block font-medium">{d.day}</span>
                <span className="block">{(d.uptime * 100).toFixed(2)} % up</span>
                {d.downSeconds ? <span className="block">Down {formatDuration(d.downSeconds)}</span> : null}
                {d.recoveringSeconds ? (
                  <span className="block">Recovering {formatDuration(d.recoveringSeconds)}</span>
                ) : null}
              </TooltipContent>
            </Tooltip>
          </li>
        ))}
      </ol>
      <div className="mt-2 flex justify-between text-[11px] text-zinc-400">
        <span>{days.length} days ago</span>
        <span>{(avg * 100).toFixed(2)} % uptime</span>
        <span>today</span>
      </div>
    </TooltipProvider>
  );
}
