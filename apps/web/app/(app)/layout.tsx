import type { ReactNode } from "react";
import { AppShell } from "@/features/shell/app-shell";
import { getOrgViewer } from "@/lib/trpc/server";

/**
 * Every organization page: a verified session and an organization to act in, or off to
 * sign-in/onboarding. The operator console (app/(operator)) needs no organization.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const viewer = await getOrgViewer();
  return <AppShell viewer={viewer}>{children}</AppShell>;
}
