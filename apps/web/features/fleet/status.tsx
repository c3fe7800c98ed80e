import type { ProviderStatus } from "@breakwater/core/fleet-status";
import { cn } from "@/lib/cn";

/** Colours of the plain status names; Stale and Unknown are grey. */
export const STATUS_STYLE: Record<ProviderStatus | "Stale", { dot: string; cell: string; text: string }> = {
  Down: { dot: "bg-red-500", cell: "border-red-200 bg-red-50/70", text: "text-red-700" },
  Recovering: { dot: "bg-amber-500", cell: "border-amber-200 bg-amber-50/70", text: "text-amber-800" },
  Healthy: { dot: "bg-emerald-500", cell: "border-emerald-200 bg-emerald-50/40", text: "text-emerald-700" },
  Unknown: { dot: "bg-zinc-300", cell: "border-zinc-200 bg-zinc-50 text-zinc-400", text: "text-zinc-500" },
  Stale: { dot: "bg-zinc-300", cell: "border-zinc-200 bg-zinc-50 text-zinc-400", text: "text-zinc-400" },
};

export function StatusDot({ status, className }: { status: ProviderStatus | "Stale"; className?: string }) {
  return (
    <span
      aria-hidden
      className={cn("inline-block size-2 shrink-0 rounded-full", STATUS_STYLE[status].dot, className)}
    />
  );
}

export function StatusLabel({ status }: { status: ProviderStatus | "Stale" }) {
  return (
    <span
      className={cn("inline-flex items-center gap-1.5 text-[13px] font-medium", STATUS_STYLE[status].text)}
    >
      <StatusDot status={status} />
      {status}
    </span>
  );
}

/** Shows how the page is kept fresh: pushed changes, or polling while the stream is down. */
export function LiveIndicator({ mode }: { mode: "connecting" | "streaming" | "polling" }) {
  const text =
    mode === "streaming"
      ? "Live"
      : mode === "polling"
        ? "Reconnecting — refreshing every 5 s"
        : "Connecting…";
  return (
    <span
      data-live={mode}
      role="status"
      className="inline-flex items-center gap-1.5 rounded-full border border-zinc-200 bg-white px-2.5 py-1 text-xs text-zinc-600"
    >
      <span
        aria-hidden
        className={cn(
          "size-1.5 rounded-full",
          mode === "streaming"
            ? "animate-pulse bg-emerald-500"
            : mode === "polling"
              ? "bg-amber-500"
              : "bg-zinc-300",
        )}
      />
      {text}
    </span>
  );
}
