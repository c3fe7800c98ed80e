"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/cn";

const LINKS = [
  { href: "/plans/prices", label: "Cards" },
  { href: "/plans/prices/explain", label: "Why this hint" },
  { href: "/plans/prices/unpriced", label: "Unpriced models" },
];

/** The price catalogue's sections. */
export function PricesNav() {
  const path = usePathname();
  const current = (href: string) =>
    href === "/plans/prices"
      ? path === href || /^\/plans\/prices\/(card_|new)/.test(path)
      : path.startsWith(href);
  return (
    <nav aria-label="Price catalogue" className="-mb-px flex gap-1 overflow-x-auto border-b border-zinc-200">
      {LINKS.map((l) => (
        <Link
          key={l.href}
          href={l.href}
          aria-current={current(l.href) ? "page" : undefined}
          className={cn(
            "shrink-0 border-b-2 px-3 py-2 text-[13px] font-medium",
            current(l.href)
              ? "border-brand-600 text-zinc-900"
              : "border-transparent text-zinc-500 hover:text-zinc-800",
          )}
        >
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
