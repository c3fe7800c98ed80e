"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { CheckIcon, ChevronsIcon, PlusIcon } from "@/components/ui/icons";
import { cn } from "@/lib/cn";
import { useTRPC } from "@/lib/trpc/client";
import type { Membership, Viewer } from "./types";

function OrgAvatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      className={cn(
        "flex size-6 shrink-0 items-center justify-center rounded-md bg-gradient-to-br from-zinc-700 to-zinc-900 text-[11px] font-semibold text-white uppercase",
        className,
      )}
    >
      {name.trim().charAt(0) || "?"}
    </span>
  );
}

/** Shows the active organization; lists the others to switch to, and a way to create one. */
export function OrgSwitcher({ viewer, memberships }: { viewer: Viewer; memberships: Membership[] }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const router = useRouter();
  const pathname = usePathname();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const active = viewer.organization;
  const activeMembership = memberships.find((m) => m.organizationId === active?.id);

  const setActive = useMutation(
    trpc.organization.setActive.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await queryClient.invalidateQueries();
        // A project page belongs to the organization we just left.
        if (pathname.startsWith("/projects/")) router.push("/projects");
        router.refresh();
      },
    }),
  );

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="Switch organization"
        className="flex w-full items-center gap-2 rounded-md border border-zinc-200 bg-white px-2 py-1.5 text-left shadow-xs hover:bg-zinc-50"
      >
        <OrgAvatar name={active?.name ?? "?"} />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-[13px] font-medium text-zinc-900" data-testid="active-org">
            {active?.name}
          </span>
          <span className="block text-[11px] text-zinc-500 capitalize">
            {activeMembership?.planSlug ?? "—"} plan · {viewer.role}
          </span>
        </span>
        <ChevronsIcon size={14} className="text-zinc-400" />
      </button>
      {open ? (
        <div
          role="menu"
          className="absolute top-full right-0 left-0 z-20 mt-1 overflow-hidden rounded-lg border border-zinc-200 bg-white py-1 shadow-lg"
        >
          <p className="px-3 pt-1.5 pb-1 text-[11px] font-medium tracking-wide text-zinc-400 uppercase">
            Organizations
          </p>
          <ul className="max-h-64 overflow-y-auto">
            {memberships.map((m) => (
              <li key={m.organizationId}>
                <button
                  type="button"
                  role="menuitem"
                  disabled={setActive.isPending}
                  onClick={() =>
                    m.organizationId === active?.id
                      ? setOpen(false)
                      : setActive.mutate({ organizationId: m.organizationId })
                  }
                  className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-[13px] text-zinc-700 hover:bg-zinc-50"
                >
                  <OrgAvatar name={m.name} className="size-5 text-[10px]" />
                  <span className="min-w-0 flex-1 truncate">{m.name}</span>
                  {m.organizationId === active?.id ? (
                    <CheckIcon size={14} className="text-brand-600" />
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
          <div className="mt-1 border-t border-zinc-100 pt-1">
            <Link
              href="/onboarding?new=1"
              role="menuitem"
              onClick={() => setOpen(false)}
              className="flex items-center gap-2 px-3 py-1.5 text-[13px] text-zinc-700 hover:bg-zinc-50"
            >
              <span className="flex size-5 items-center justify-center rounded-md border border-dashed border-zinc-300 text-zinc-500">
                <PlusIcon size={12} />
              </span>
              New organization
            </Link>
          </div>
        </div>
      ) : null}
    </div>
  );
}
