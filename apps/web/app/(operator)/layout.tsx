import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/features/shell/app-shell";
import { getViewer } from "@/lib/trpc/server";

/**
 * The operator console (/plans/…): a verified session. An operator needs no organization here —
 * the one made by the setup link or `bw user create --operator` belongs to none. Anyone else
 * needs one, as on every dashboard page, and is told the console is for operators.
 */
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in");
  if (!viewer.organization && !viewer.user.isOperator) redirect("/onboarding");
  return <AppShell viewer={viewer}>{children}</AppShell>;
}
