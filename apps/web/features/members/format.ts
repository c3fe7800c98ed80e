import type { AppRouter } from "@breakwater/api";
import type { inferRouterOutputs } from "@trpc/server";

type Outputs = inferRouterOutputs<AppRouter>;
export type MembersData = Outputs["member"]["list"];
export type Member = MembersData["members"][number];
export type Invitation = MembersData["invitations"][number];
export type Role = Member["role"];

export const ROLE_OPTIONS: { value: Role; label: string; description: string }[] = [
  { value: "owner", label: "Owner", description: "Everything, including billing and owners" },
  { value: "admin", label: "Admin", description: "Projects, keys, webhooks and members" },
  { value: "member", label: "Member", description: "Projects' budgets, rules and runs" },
  { value: "viewer", label: "Viewer", description: "Reads everything, changes nothing" },
];

export const roleLabel = (role: string) => ROLE_OPTIONS.find((r) => r.value === role)?.label ?? role;

export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/** The message of a failed tRPC call, and its per-field messages when the server sent them. */
export function errorInfo(err: unknown): { message: string; fieldErrors: Record<string, string> } {
  if (!err) return { message: "", fieldErrors: {} };
  const e = err as { message?: string; data?: { fieldErrors?: Record<string, string> } };
  return { message: e.message ?? "Something went wrong", fieldErrors: e.data?.fieldErrors ?? {} };
}
