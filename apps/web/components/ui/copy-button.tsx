"use client";

import { useState } from "react";
import { cn } from "@/lib/cn";
import { CheckIcon, CopyIcon } from "./icons";

/** Copies `value` to the clipboard and confirms for a moment. */
export function CopyButton({
  value,
  label = "Copy",
  className,
  tone = "light",
}: {
  value: string;
  label?: string;
  className?: string;
  /** "dark" on code blocks. */
  tone?: "light" | "dark";
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard API needs a secure context; fall back to a selection the user can copy.
          const area = document.createElement("textarea");
          area.value = value;
          document.body.append(area);
          area.select();
          document.execCommand("copy");
          area.remove();
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
      className={cn(
        "inline-flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs font-medium",
        tone === "dark"
          ? "border-white/15 bg-white/10 text-zinc-200 hover:bg-white/15"
          : "border-zinc-200 bg-white text-zinc-700 shadow-xs hover:bg-zinc-50",
        className,
      )}
      aria-label={copied ? "Copied" : label}
    >
      {copied ? <CheckIcon size={13} className="text-emerald-600" /> : <CopyIcon size={13} />}
      {copied ? "Copied" : label}
    </button>
  );
}
