/**
 * The tenancy listings' rows and the DTOs made from them, free of Prisma and zod: core's listings
 * shape what Prisma reads with these, and the admin CLI's front (tooling/cli/fast.ts) shapes what it
 * reads in plain SQL with the same functions, so the two print the same bytes.
 */
import type { ProjectDto } from "./create-project";

/** API keys' DTO lives with api-keys; it is re-exported here for the CLI's plain-SQL listings. */
export { type ApiKeyDto, type ApiKeyRow, toApiKeyDto } from "../api-keys/api-key-dto";
export type { ProjectDto };

/** An organization as the listing shows it. */
export interface OrganizationListDto {
  id: string;
  name: string;
  slug: string;
  /** Null when the organization has no subscription. */
  planSlug: string | null;
  /** Every project, archived ones included. */
  projectCount: number;
  createdAt: string;
}

export interface OrganizationListRow {
  id: string;
  name: string;
  slug: string;
  planSlug: string | null;
  projectCount: number;
  createdAt: Date;
}

export function organizationListDtoFrom(row: OrganizationListRow): OrganizationListDto {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    planSlug: row.planSlug,
    projectCount: row.projectCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The column an organization reference names: ids carry the `org_` prefix and slugs cannot contain "_". */
export function organizationRef(ref: string): { id: string } | { slug: string } {
  return ref.startsWith("org_") ? { id: ref } : { slug: ref.toLowerCase() };
}

/** A project row with its period limits (`limitUsd` a decimal, or its text). */
export interface ProjectRow {
  id: string;
  organizationId: string;
  name: string;
  mode: ProjectDto["mode"];
  createdAt: Date;
  budgetLimits: { period: string; limitUsd: { toString(): string } | string }[];
}

export function limitsOf(limits: ProjectRow["budgetLimits"]): ProjectDto["limits"] {
  const get = (p: string) => {
    const l = limits.find((x) => x.period === p);
    return l ? Number(l.limitUsd.toString()) : null;
  };
  return { daily: get("daily"), weekly: get("weekly"), monthly: get("monthly") };
}

export function projectDtoFrom(p: ProjectRow): ProjectDto {
  return {
    id: p.id,
    organizationId: p.organizationId,
    name: p.name,
    mode: p.mode,
    limits: limitsOf(p.budgetLimits),
    createdAt: p.createdAt.toISOString(),
  };
}
