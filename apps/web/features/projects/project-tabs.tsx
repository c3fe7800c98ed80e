"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/cn";

/** The project pages as tabs under the project header; the strip scrolls sideways on a phone. */
export function ProjectTabs({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}`;
  const links = [
    { href: base, label: "Overview", active: pathname === base },
    { href: `${base}/usage`, label: "Usage", active: pathname.startsWith(`${base}/usage`) },
    { href: `${base}/runs`, label: "Runs", active: pathname.startsWith(`${base}/runs`) },
    { href: `${base}/settings`, label: "Settings", active: pathname.startsWith(`${base}/settings`) },
  ];
  return (
    <nav aria-label="Project" className="-mt-2 overflow-x-auto border-b border-zinc-200">
      <ul className="flex gap-4">
        {links.map((l) => (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={l.active ? "page" : undefined}
              className={cn(
                "-mb-px inline-flex h-9 items-center border-b-2 text-[13px] font-medium whitespace-nowrap",
                l.active
                  ? "border-zinc-900 text-zinc-900"
                  : "border-transparent text-zinc-500 hover:border-zinc-300 hover:text-zinc-800",
              )}
            >
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
