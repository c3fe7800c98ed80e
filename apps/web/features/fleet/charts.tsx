"use client";

import type { TimelineBucket, UptimeDay } from "@breakwater/core/fleet-status";
import { formatDuration } from "@breakwater/core/fleet-status";
import { cn } from "@/lib/cn";

const tick = (iso: string, range: "24h" | "7d" | "30d") => {
  const d = new Date(iso);
  return range === "24h"
    ? `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`
    : `${d.toLocaleString("en-US", { month: "short", timeZone: "UTC" })} ${d.getUTCDate()}`;
};

/** Transitions into Down / Recovering / Healthy per time bucket. */
export function TimelineChart({
  buckets,
  range,
}: {
  buckets: TimelineBucket[];
  range: "24h" | "7d" | "30d";
}) {
  const max = Math.max(1, ...buckets.map((b) => b.down + b.recovering + b.healthy));
  const total = buckets.reduce((n, b) => n + b.down + b.recovering + b.healthy, 0);
  return (
    <figure aria-label="Transition timeline" data-testid="timeline" data-total={total}>
      <div className="flex h-28 items-end gap-px">
        {buckets.map((b) => {
          const n = b.down + b.recovering + b.healthy;
          return (
            <div
              key={b.at}
              className="flex h-full min-w-0 flex-1 flex-col justify-end"
              title={`${tick(b.at, range)} UTC: ${b.down} to Down, ${b.recovering} to Recovering, ${b.healthy} to Healthy`}
            >
              {n === 0 ? (
                <div className="h-px bg-zinc-200" />
              ) : (
                <>
                  <div className="bg-red-500" style={{ height: `${(b.down / max) * 100}%` }} />
                  <div className="bg-amber-400" style={{ height: `${(b.recovering / max) * 100}%` }} />
                  <div className="bg-emerald-500" style={{ height: `${(b.healthy / max) * 100}%` }} />
                </>
              )}
            </div>
          );
        })}
      </div>
      <figcaption className="mt-2 flex justify-between text-[11px] text-zinc-400">
        <span>{buckets[0] ? tick(buckets[0].at, range) : ""}</span>
        <span>{total} transitions</span>
        <span>now</span>
      </figcaption>
    </figure>
  );
}

/** 90 daily bars, one per UTC day, coloured by uptime. */
export function UptimeBars({ days }: { days: UptimeDay[] }) {
  const avg = days.length ? days.reduce((n, d) => n + d.uptime, 0) / days.length : 1;
  return (
    <div>
      <ol className="flex h-10 items-stretch gap-px" aria-label="Daily uptime">
        {days.map((d) => {
          const text = `${d.day}: ${(d.uptime * 100).toFixed(2)} % up${d.downSeconds ? `, Down ${formatDuration(d.downSeconds)}` : ""}${d.recoveringSeconds ? `, Recovering ${formatDuration(d.recoveringSeconds)}` : ""}`;
          return (
            <li
              key={d.day}
              aria-label={text}
              title={text}
              className={cn(
                "min-w-0 flex-1 rounded-[1px]",
                d.uptime >= 0.999 ? "bg-emerald-500" : d.uptime >= 0.99 ? "bg-amber-400" : "bg-red-500",
              )}
            />
          );
        })}
      </ol>
      <div className="mt-2 flex justify-between text-[11px] text-zinc-400">
        <span>90 days ago</span>
        <span>{(avg * 100).toFixed(2)} % uptime</span>
        <span>today</span>
      </div>
    </div>
  );
}
