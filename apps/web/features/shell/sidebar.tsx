"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useState } from "react";
import { Badge } from "@/components/ui/badge";
import {
  AuditIcon,
  BuildingIcon,
  FleetIcon,
  KeyIcon,
  LogOutIcon,
  MembersIcon,
  MenuIcon,
  OperatorsIcon,
  PlansIcon,
  PricesIcon,
  ProjectsIcon,
  UsageIcon,
  WebhooksIcon,
} from "@/components/ui/icons";
import { Logo } from "@/components/ui/logo";
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import { cn } from "@/lib/cn";
import { OrgSwitcher } from "./org-switcher";
import type { Membership, Viewer } from "./types";

const NAV: { href: string; label: string; icon: ReactNode; operatorOnly?: boolean }[] = [
  { href: "/fleet", label: "Fleet", icon: <FleetIcon /> },
  { href: "/projects", label: "Projects", icon: <ProjectsIcon /> },
  { href: "/usage", label: "Usage", icon: <UsageIcon /> },
  { href: "/webhooks", label: "Webhooks", icon: <WebhooksIcon /> },
  { href: "/members", label: "Members", icon: <MembersIcon /> },
  { href: "/audit", label: "Audit log", icon: <AuditIcon /> },
  { href: "/settings/api-access", label: "API access", icon: <KeyIcon /> },
  { href: "/plans", label: "Plans", icon: <PlansIcon />, operatorOnly: true },
  { href: "/plans/organizations", label: "Organizations", icon: <BuildingIcon />, operatorOnly: true },
  { href: "/plans/prices", label: "Prices", icon: <PricesIcon />, operatorOnly: true },
  { href: "/plans/operators", label: "Operators", icon: <OperatorsIcon />, operatorOnly: true },
];

/** Where "home" is: the fleet, or the operator console for an operator with no organization. */
const homeOf = (viewer: Viewer) => (viewer.organization ? "/fleet" : "/plans");

function initials(name: string) {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

/** The navigation: a sidebar from the md breakpoint up, a top bar with a menu sheet on phones. */
export function Sidebar({ viewer, memberships }: { viewer: Viewer; memberships: Membership[] }) {
  const [open, setOpen] = useState(false);
  const home = homeOf(viewer);
  return (
    <>
      <aside className="sticky top-0 hidden h-dvh w-60 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50/70 md:flex">
        <SidebarContent viewer={viewer} memberships={memberships} />
      </aside>
      <header className="sticky top-0 z-40 flex h-14 items-center gap-3 border-b border-zinc-200 bg-white/95 px-4 backdrop-blur md:hidden">
        <Sheet open={open} onOpenChange={setOpen}>
          <SheetTrigger
            aria-label="Open navigation"
            className="-ml-1.5 rounded-md p-1.5 text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            <MenuIcon size={18} />
          </SheetTrigger>
          <SheetContent side="left" className="bg-zinc-50">
            <SheetTitle className="sr-only">Navigation</SheetTitle>
            <SheetDescription className="sr-only">Organization, pages and account</SheetDescription>
            <SidebarContent viewer={viewer} memberships={memberships} onNavigate={() => setOpen(false)} />
          </SheetContent>
        </Sheet>
        <Link href={home} aria-label="Breakwater home">
          <Logo />
        </Link>
      </header>
    </>
  );
}

function SidebarContent({
  viewer,
  memberships,
  onNavigate,
}: {
  viewer: Viewer;
  memberships: Membership[];
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  // With no organization (an operator who founded none) only the operator console applies.
  const items = NAV.filter((n) =>
    viewer.organization
      ? !n.operatorOnly || viewer.user.isOperator
      : n.operatorOnly && viewer.user.isOperator,
  );
  // The longest matching entry is the current one (/plans/organizations is not also /plans).
  const current = items
    .filter((n) => pathname === n.href || pathname.startsWith(`${n.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <div className="flex min-h-full flex-1 flex-col">
      <div className="flex h-14 items-center px-4">
        <Link href={homeOf(viewer)} aria-label="Breakwater home" onClick={onNavigate}>
          <Logo />
        </Link>
      </div>
      <div className="px-3">
        <OrgSwitcher viewer={viewer} memberships={memberships} />
      </div>
      <nav aria-label="Main" className="mt-4 flex-1 px-3">
        <ul className="space-y-0.5">
          {items.map((item) => {
            const active = item.href === current;
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  onClick={onNavigate}
                  className={cn(
                    "flex h-8 items-center gap-2.5 rounded-md px-2 text-[13px] font-medium transition-colors",
                    active
                      ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200"
                      : "text-zinc-600 hover:bg-zinc-200/50 hover:text-zinc-900",
                  )}
                >
                  <span className={active ? "text-brand-600" : "text-zinc-400"}>{item.icon}</span>
                  <span className="flex-1">{item.label}</span>
                  {item.operatorOnly ? <Badge tone="brand">Operator</Badge> : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="border-t border-zinc-200 p-3">
        <div className="flex items-center gap-2.5 rounded-md px-1 py-1">
          <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-100 text-[11px] font-semibold text-brand-700">
            {initials(viewer.user.name)}
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-[13px] font-medium text-zinc-900">{viewer.user.name}</span>
            <span className="block truncate text-[11px] text-zinc-500" data-testid="user-email">
              {viewer.user.email}
            </span>
          </span>
          <Link
            href="/sign-out"
            className="rounded-md p-1.5 text-zinc-400 hover:bg-zinc-200/60 hover:text-zinc-700"
            aria-label="Sign out"
            title="Sign out"
          >
            <LogOutIcon size={15} />
          </Link>
        </div>
      </div>
    </div>
  );
}
