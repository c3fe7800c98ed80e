"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/cn";

const LINKS = [
  {
    href: "/webhooks",
    label: "Endpoints",
    match: (p: string) => p === "/webhooks" || p.startsWith("/webhooks/endpoints"),
  },
  {
    href: "/webhooks/messages",
    label: "Message log",
    match: (p: string) => p.startsWith("/webhooks/messages"),
  },
  { href: "/webhooks/events", label: "Event types", match: (p: string) => p.startsWith("/webhooks/events") },
];

/** The webhook pages' own navigation, under the page header. */
export function WebhooksNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Webhooks" className="-mt-2 overflow-x-auto border-b border-zinc-200">
      <ul className="flex gap-4">
        {LINKS.map((l) => {
          const active = l.match(pathname);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "-mb-px inline-flex h-9 items-center border-b-2 text-[13px] font-medium whitespace-nowrap",
                  active
                    ? "border-zinc-900 text-zinc-900"
                    : "border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800",
                )}
              >
                {l.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
