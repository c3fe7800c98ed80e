import type { ManagementScope } from "../context";

/** A management key as listings and the create/revoke answers show it (never the key). */
export interface ManagementKeyDto {
  id: string;
  /** Null for operator keys. */
  organizationId: string | null;
  name: string;
  scope: ManagementScope;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export function toManagementKeyDto(row: {
  id: string;
  organizationId: string | null;
  name: string;
  scope: ManagementScope;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}): ManagementKeyDto {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
