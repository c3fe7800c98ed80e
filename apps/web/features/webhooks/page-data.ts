import { getCaller, getViewer } from "@/lib/trpc/server";

/** Who is looking and on which plan: what every webhook page decides its controls by. */
export async function webhookPageContext() {
  const viewer = (await getViewer())!;
  const memberships = await (await getCaller()).organization.listMine();
  const planSlug =
    memberships.find((m) => m.organizationId === viewer.organization?.id)?.planSlug ?? "current";
  const canManage = viewer.user.isOperator || viewer.role === "admin" || viewer.role === "owner";
  return { viewer, canManage, planName: planSlug.charAt(0).toUpperCase() + planSlug.slice(1) };
}
