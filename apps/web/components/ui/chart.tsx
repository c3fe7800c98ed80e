"use client";

import type { ReactElement, ReactNode } from "react";
import { ResponsiveContainer, Tooltip } from "recharts";
import { cn } from "@/lib/cn";

/** Series colours by key: a label for the legend/tooltip and a CSS colour. */
export type ChartConfig = Record<string, { label: string; color: string }>;

/**
 * A sized, responsive frame for one Recharts chart. Pass the chart element (`<LineChart>`,
 * `<BarChart>`…) as the child and refer to series colours as `var(--color-<key>)`, set here from
 * `config`. `label` names the chart for screen readers (role="img"); give a table of the same
 * figures nearby where the numbers matter.
 */
export function ChartContainer({
  config,
  label,
  className,
  children,
}: {
  config: ChartConfig;
  label: string;
  className?: string;
  children: ReactElement;
}) {
  const vars = Object.fromEntries(Object.entries(config).map(([k, v]) => [`--color-${k}`, v.color]));
  return (
    <div role="img" aria-label={label} className={cn("h-56 w-full text-xs", className)} style={vars}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** A tooltip body in the kit's style that names series by the config's labels. */
export function ChartTooltipContent({
  active,
  payload,
  label,
  config,
  formatValue = (v) => String(v),
}: {
  active?: boolean;
  payload?: readonly { dataKey?: unknown; name?: unknown; value?: unknown; color?: string }[];
  label?: unknown;
  config: ChartConfig;
  formatValue?: (v: number) => ReactNode;
}) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-zinc-200 bg-white px-2.5 py-1.5 text-xs shadow-md">
      {label !== undefined ? <p className="mb-1 font-medium text-zinc-900">{String(label)}</p> : null}
      {payload.map((p) => {
        const key = String(p.dataKey ?? p.name);
        return (
          <p key={key} className="flex items-center gap-1.5 text-zinc-600">
            <span className="size-2 rounded-sm" style={{ background: config[key]?.color ?? p.color }} />
            {config[key]?.label ?? key}
            <span className="ml-auto pl-3 font-medium text-zinc-900 tabular-nums">
              {typeof p.value === "number" ? formatValue(p.value) : String(p.value)}
            </span>
          </p>
        );
      })}
    </div>
  );
}

/** Recharts' Tooltip wired to ChartTooltipContent. */
export function ChartTooltip({
  config,
  formatValue,
}: {
  config: ChartConfig;
  formatValue?: (v: number) => ReactNode;
}) {
  return (
    <Tooltip
      cursor={{ fill: "var(--color-zinc-100)" }}
      content={(props) => (
        <ChartTooltipContent
          active={props.active}
          payload={props.payload}
          label={props.label}
          config={config}
          formatValue={formatValue}
        />
      )}
    />
  );
}
