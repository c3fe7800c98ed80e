import { redirect } from "next/navigation";
import { getViewer } from "@/lib/trpc/server";

/** Home: the fleet; for an operator who belongs to no organization yet, the operator console. */
export default async function Home() {
  const viewer = await getViewer();
  redirect(viewer?.user.isOperator && !viewer.organization ? "/plans" : "/fleet");
}
