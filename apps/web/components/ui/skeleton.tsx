import type { HTMLAttributes } from "react";
import { cn } from "@/lib/cn";

/** A grey placeholder block shaped like the content that is loading. */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-zinc-200/70", className)} {...props} />
  );
}
