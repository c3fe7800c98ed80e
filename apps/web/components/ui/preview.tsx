import type { ReactNode } from "react";

/** A list of what a page will show once data arrives, with a faint preview of its shape. */
export function ComingUp({ items }: { items: { title: string; text: ReactNode }[] }) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {items.map((i) => (
        <div key={i.title} className="rounded-lg border border-zinc-200 bg-white p-4 shadow-xs">
          <p className="text-[13px] font-medium text-zinc-900">{i.title}</p>
          <p className="mt-1 text-xs leading-relaxed text-zinc-500">{i.text}</p>
        </div>
      ))}
    </div>
  );
}

/** Skeleton rows hinting at a table that will fill in. */
export function GhostTable({ columns, rows = 3 }: { columns: string[]; rows?: number }) {
  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs" aria-hidden="true">
      <div
        className="grid border-b border-zinc-200 bg-zinc-50/80 px-4 py-2.5 text-xs font-medium text-zinc-400"
        style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}
      >
        {columns.map((c) => (
          <span key={c}>{c}</span>
        ))}
      </div>
      {Array.from({ length: rows }, (_, r) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
          key={r}
          className="grid items-center border-b border-zinc-100 px-4 py-3 last:border-0"
          style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}
        >
          {columns.map((c, i) => (
            <span
              key={c}
              className="h-2.5 rounded-full bg-zinc-100"
              style={{ width: `${40 + ((r * 17 + i * 23) % 45)}%` }}
            />
          ))}
        </div>
      ))}
    </div>
  );
}
