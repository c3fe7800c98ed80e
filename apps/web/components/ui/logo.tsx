import { cn } from "@/lib/cn";

/** The Breakwater mark: a sea wall with waves breaking against it. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex size-7 items-center justify-center rounded-md bg-gradient-to-b from-brand-500 to-brand-700 text-white shadow-sm ring-1 ring-black/10",
        className,
      )}
    >
      <svg viewBox="0 0 24 24" width="17" height="17" fill="none" aria-hidden="true">
        <rect x="15.5" y="4" width="4" height="16" rx="1" fill="currentColor" />
        <path
          d="M3 9.5c1.6 0 1.6-1.5 3.2-1.5s1.6 1.5 3.2 1.5 1.6-1.5 3.1-1.5"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          opacity=".95"
        />
        <path
          d="M3 14c1.6 0 1.6-1.5 3.2-1.5s1.6 1.5 3.2 1.5 1.6-1.5 3.1-1.5"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          opacity=".7"
        />
        <path
          d="M3 18.5c1.6 0 1.6-1.5 3.2-1.5s1.6 1.5 3.2 1.5 1.6-1.5 3.1-1.5"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          opacity=".45"
        />
      </svg>
    </span>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2", className)}>
      <LogoMark />
      <span className="font-semibold tracking-tight text-zinc-900">Breakwater</span>
    </span>
  );
}
