"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { CheckIcon, ChevronsIcon, PlusIcon } from "@/components/ui/icons";
import { cn } from "@/lib/cn";
import { useTRPC } from "@/lib/trpc/client";
import type { Membership, Viewer } from "./types";

function OrgAvatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-6 shrink-0 items-center justify-center rounded-md bg-gradient-to-br from-zinc-700 to-zinc-900 text-[11px] font-semibold text-white uppercase",
        className,
      )}
    >
      {name.trim().charAt(0) || "?"}
    </span>
  );
}

/**
 * Shows the active organization; lists the others to switch to, and a way to create one.
 * A kit DropdownMenu: arrow keys, Enter, typeahead, Escape gives focus back to the button.
 */
export function OrgSwitcher({ viewer, memberships }: { viewer: Viewer; memberships: Membership[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const active = viewer.organization;
  const activeMembership = memberships.find((m) => m.organizationId === active?.id);

  const setActive = useMutation(
    trpc.organization.setActive.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries();
        // A project page belongs to the organization we just left.
        if (pathname.startsWith("/projects/")) router.push("/projects");
        router.refresh();
      },
    }),
  );

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Switch organization"
        className="flex w-full items-center gap-2 rounded-md border border-zinc-200 bg-white px-2 py-1.5 text-left shadow-xs hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
      >
        <OrgAvatar name={active?.name ?? "–"} />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-[13px] font-medium text-zinc-900" data-testid="active-org">
            {active ? active.name : "No organization"}
          </span>
          <span className="block text-[11px] text-zinc-500 capitalize">
            {active ? `${activeMembership?.planSlug ?? "—"} plan · ${viewer.role}` : "Operator"}
          </span>
        </span>
        <ChevronsIcon size={14} className="text-zinc-400" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-(--radix-dropdown-menu-trigger-width) min-w-56">
        <DropdownMenuLabel>Organizations</DropdownMenuLabel>
        {memberships.map((m) => (
          <DropdownMenuItem
            key={m.organizationId}
            textValue={m.name}
            disabled={setActive.isPending}
            onSelect={() => {
              if (m.organizationId !== active?.id) setActive.mutate({ organizationId: m.organizationId });
            }}
          >
            <OrgAvatar name={m.name} className="size-5 text-[10px]" />
            <span className="min-w-0 flex-1 truncate">{m.name}</span>
            {m.organizationId === active?.id ? <CheckIcon size={14} className="text-brand-600" /> : null}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          textValue="New organization"
          onSelect={() => router.push(active ? "/onboarding?new=1" : "/onboarding")}
        >
          <span className="flex size-5 items-center justify-center rounded-md border border-dashed border-zinc-300 text-zinc-500">
            <PlusIcon size={12} />
          </span>
          New organization
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
