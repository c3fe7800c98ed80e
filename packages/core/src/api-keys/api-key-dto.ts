/**
 * An API key as listings and the create/revoke answers show it, and the row it is made from. Free
 * of Prisma and zod: tenancy's listings (tenancy-rows.ts, and through it the admin CLI's plain-SQL
 * front) shape keys with the same function, so this module imports nothing.
 */

export interface ApiKeyDto {
  id: string;
  projectId: string;
  name: string;
  prefix: string;
  readOnly: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface ApiKeyRow {
  id: string;
  projectId: string;
  name: string;
  prefix: string;
  readOnly: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export function toApiKeyDto(row: ApiKeyRow): ApiKeyDto {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    prefix: row.prefix,
    readOnly: row.readOnly,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
