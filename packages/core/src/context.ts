import type { Config } from "@breakwater/config";
import type { PrismaClient } from "@breakwater/db";
import type { JobsClient, RedisClient } from "@breakwater/queue";
import type { Logger } from "pino";
import { forbidden } from "./errors";

export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** What a management key may do: read, write (an organization's resources) or the operator routes. */
export const MANAGEMENT_SCOPES = ["read", "write", "operator"] as const;
export type ManagementScope = (typeof MANAGEMENT_SCOPES)[number];

export type Actor =
  | { type: "user"; userId: string; isOperator: boolean }
  | { type: "api_key"; keyId: string; projectId: string }
  /** A management API key (/api/manage/v1); operator-scoped keys act as the installation's operator. */
  | { type: "management_key"; keyId: string; name: string; scope: ManagementScope }
  | { type: "system"; name: string };

/** Clients shared by every core function; built once per process. */
export interface Deps {
  db: PrismaClient;
  config: Config;
  log: Logger;
  redis?: RedisClient;
  /** Enqueues background jobs (webhook delivery…); absent where nothing enqueues (CLI). */
  jobs?: JobsClient;
}

/** The caller of a core function: who, and (for tenant-scoped calls) in which organization with which role. */
export interface Ctx extends Deps {
  actor: Actor;
  organizationId?: string;
  role?: Role;
}

/** A context for system work (CLI, seed, worker jobs). */
export function systemCtx(deps: Deps, name = "system"): Ctx {
  return { ...deps, actor: { type: "system", name } };
}

/** True when `role` is at least `min` in owner > admin > member > viewer. */
export function roleAtLeast(role: Role | undefined, min: Role): boolean {
  if (!role) return false;
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/** True for callers acting as the installation: system work, an operator, or an operator-scoped management key. */
export function isOperatorActor(actor: Actor): boolean {
  if (actor.type === "system") return true;
  if (actor.type === "user") return actor.isOperator;
  return actor.type === "management_key" && actor.scope === "operator";
}

/** Throws FORBIDDEN unless the caller is system, an operator, or holds at least `min` in the org. */
export function requireRole(ctx: Ctx, min: Role): void {
  if (isOperatorActor(ctx.actor)) return;
  if (!roleAtLeast(ctx.role, min)) throw forbidden(`This needs the ${min} role or higher`);
}

/** Actor columns for audit rows. */
export function actorRef(actor: Actor): { actorType: string; actorId: string | null } {
  switch (actor.type) {
    case "user":
      return { actorType: actor.isOperator ? "operator" : "user", actorId: actor.userId };
    case "api_key":
      return { actorType: "api_key", actorId: actor.keyId };
    case "management_key":
      return { actorType: "management_key", actorId: actor.keyId };
    case "system":
      return { actorType: "system", actorId: actor.name };
  }
}
