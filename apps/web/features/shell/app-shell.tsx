import type { ReactNode } from "react";
import { getCaller } from "@/lib/trpc/server";
import { Sidebar } from "./sidebar";
import type { Viewer } from "./types";

/** The dashboard's frame: the navigation (sidebar, or a top bar on phones) beside the page. */
export async function AppShell({ viewer, children }: { viewer: Viewer; children: ReactNode }) {
  const memberships = await (await getCaller()).organization.listMine();
  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <Sidebar viewer={viewer} memberships={memberships} />
      <main className="min-w-0 flex-1">
        <div className="mx-auto max-w-6xl px-4 py-6 sm:px-8 sm:py-8">{children}</div>
      </main>
    </div>
  );
}
