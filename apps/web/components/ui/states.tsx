import type { ReactNode } from "react";
import { cn } from "@/lib/cn";
import { AlertIcon, SpinnerIcon } from "./icons";
import { Skeleton } from "./skeleton";

/** Explains an empty area: what will appear here and how to get it there. */
export function EmptyState({
  icon,
  title,
  description,
  children,
  className,
}: {
  icon: ReactNode;
  title: ReactNode;
  description: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center rounded-lg border border-dashed border-zinc-300 bg-zinc-50/50 px-6 py-14 text-center",
        className,
      )}
    >
      <div className="flex size-10 items-center justify-center rounded-lg border border-zinc-200 bg-white text-zinc-500 shadow-xs">
        {icon}
      </div>
      <h3 className="mt-4 text-[15px] font-semibold text-zinc-900">{title}</h3>
      <div className="mt-1.5 max-w-md text-[13px] leading-relaxed text-zinc-500">{description}</div>
      {children ? <div className="mt-5 flex flex-col items-center gap-4">{children}</div> : null}
    </div>
  );
}

/** Something failed to load: says what, and offers to try again when it can. */
export function ErrorState({
  title = "Could not load this",
  message,
  onRetry,
  className,
}: {
  title?: ReactNode;
  message: ReactNode;
  onRetry?: () => void;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn(
        "flex items-start gap-3 rounded-lg border border-red-200 bg-red-50/70 px-4 py-3 text-[13px] text-red-800",
        className,
      )}
    >
      <AlertIcon size={16} className="mt-0.5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{title}</p>
        <p className="mt-0.5 break-words text-red-700">{message}</p>
      </div>
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="shrink-0 rounded-md border border-red-200 bg-white px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50"
        >
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Loading: skeleton rows by default (`rows`), or a spinner line with a label. */
export function LoadingState({
  label = "Loading…",
  rows = 3,
  variant = "rows",
  className,
}: {
  label?: string;
  rows?: number;
  variant?: "rows" | "spinner";
  className?: string;
}) {
  if (variant === "spinner") {
    return (
      <div
        role="status"
        className={cn("flex items-center justify-center gap-2 py-8 text-[13px] text-zinc-500", className)}
      >
        <SpinnerIcon size={15} className="animate-spin" />
        {label}
      </div>
    );
  }
  return (
    <div role="status" aria-label={label} className={cn("space-y-2 py-2", className)}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} className="h-8 w-full" />
      ))}
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** The part of a TanStack Query result QueryState reads. */
export interface QueryLike<T> {
  data: T | undefined;
  error: { message: string } | null;
  isPending: boolean;
  refetch?: () => unknown;
}

/**
 * Renders one query's four states: loading, error (with retry), empty (when `isEmpty(data)`,
 * by default an empty array) and data.
 */
export function QueryState<T>({
  query,
  loading,
  empty,
  isEmpty = (d) => Array.isArray(d) && d.length === 0,
  errorTitle,
  children,
}: {
  query: QueryLike<T>;
  loading?: ReactNode;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  errorTitle?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.error) {
    const refetch = query.refetch;
    return (
      <ErrorState
        title={errorTitle}
        message={query.error.message}
        onRetry={refetch ? () => void refetch() : undefined}
      />
    );
  }
  if (query.isPending || query.data === undefined) return <>{loading ?? <LoadingState />}</>;
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
