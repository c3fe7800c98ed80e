import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { Sidebar } from "@/features/shell/sidebar";
import { getCaller, getViewer } from "@/lib/trpc/server";

/** Every dashboard page: a verified session and an organization to act in, or off to sign-in/onboarding. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in");
  if (!viewer.organization) redirect("/onboarding");
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
