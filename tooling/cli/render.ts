/** Output of CLI commands: both forms (a human table, one JSON value), free of database code. */
import type { ApiKeyDto } from "@breakwater/core";
import type { PlanDto } from "@breakwater/core/plans/list-plans";
import type { OrganizationListDto, ProjectDto } from "@breakwater/core/tenancy/tenancy-rows";
import type { BudgetRules } from "./budget";

export interface Result {
  human: string;
  json: unknown;
}

/** Columns padded to their widest cell; "(none)" for no rows. */
export function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return "(none)";
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

/** `plan list`: price, the headline entitlements and subscribers of every plan's latest version. */
export function planListResult(plans: PlanDto[]): Result {
  return {
    human: table(
      ["SLUG", "NAME", "VERSION", "PRICE/MO", "MAX PROJECTS", "REQUESTS/MO", "RETENTION", "SUBSCRIBERS"],
      plans.map((p) => [
        p.slug,
        p.name + (p.archived ? " (archived)" : ""),
        `v${p.version}`,
        `$${(p.priceCents / 100).toFixed(2)}`,
        p.entitlements.max_projects === null ? "unlimited" : String(p.entitlements.max_projects ?? "-"),
        String(p.entitlements.included_requests_month ?? "-"),
        p.entitlements.retention_days === undefined ? "-" : `${p.entitlements.retention_days} d`,
        String(p.subscriptionCount),
      ]),
    ),
    json: plans.map((p) => ({
      plan_id: p.id,
      slug: p.slug,
      name: p.name,
      version: p.version,
      price_cents: p.priceCents,
      entitlements: p.entitlements,
      subscription_count: p.subscriptionCount,
      archived: p.archived,
    })),
  };
}

/** `org list`: every organization, oldest first. */
export function orgListResult(orgs: OrganizationListDto[]): Result {
  return {
    human: table(
      ["ID", "SLUG", "NAME", "PLAN", "PROJECTS"],
      orgs.map((o) => [o.id, o.slug, o.name, o.planSlug ?? "-", String(o.projectCount)]),
    ),
    json: orgs.map((o) => ({
      organization_id: o.id,
      name: o.name,
      slug: o.slug,
      plan: o.planSlug,
      project_count: o.projectCount,
      created_at: o.createdAt,
    })),
  };
}

/** `project list`: an organization's live projects, oldest first. */
export function projectListResult(projects: ProjectDto[]): Result {
  return {
    human: table(
      ["ID", "NAME", "MODE", "LIMITS"],
      projects.map((p) => [p.id, p.name, p.mode, formatLimits(p.limits)]),
    ),
    json: projects.map((p) => ({
      project_id: p.id,
      organization_id: p.organizationId,
      name: p.name,
      mode: p.mode,
      limits: p.limits,
      created_at: p.createdAt,
    })),
  };
}

/** `key list`: a project's keys, oldest first, never the secret; a key's status as of `now`. */
export function keyListResult(keys: ApiKeyDto[], now = new Date()): Result {
  return {
    human: table(
      ["ID", "PREFIX", "NAME", "ACCESS", "STATUS", "LAST USED"],
      keys.map((k) => [
        k.id,
        k.prefix,
        k.name,
        k.readOnly ? "read-only" : "read-write",
        k.revokedAt ? "revoked" : k.expiresAt && new Date(k.expiresAt) <= now ? "expired" : "active",
        k.lastUsedAt ?? "never",
      ]),
    ),
    json: keys.map(keyJson),
  };
}

export function keyJson(k: ApiKeyDto) {
  return {
    key_id: k.id,
    project_id: k.projectId,
    name: k.name,
    prefix: k.prefix,
    read_only: k.readOnly,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
  };
}

export function formatLimits(l: ProjectDto["limits"]): string {
  const parts = (["daily", "weekly", "monthly"] as const)
    .filter((p) => l[p] !== null)
    .map((p) => `${p} $${l[p]}`);
  return parts.length ? parts.join(", ") : "none";
}

/** `project create`: the project and its first key, shown once. The organization's slug is unknown over the API. */
export function projectCreatedResult(
  project: ProjectDto,
  key: { id: string; apiKey: string },
  org: { id: string; slug: string | null },
): Result {
  return {
    human: [
      `Created project ${project.name} (${project.id}) in ${org.slug ? `${org.slug} (${org.id})` : org.id}`,
      `  mode ${project.mode}, limits ${formatLimits(project.limits)}`,
      `API key (shown once): ${key.apiKey}`,
      "",
      `  export SOLWYN_API_KEY=${key.apiKey}`,
    ].join("\n"),
    json: {
      project_id: project.id,
      api_key: key.apiKey,
      key_id: key.id,
      organization_id: org.id,
      organization_slug: org.slug,
      name: project.name,
      mode: project.mode,
      limits: project.limits,
    },
  };
}

/** `key create`: the new key, its secret shown once. */
export function keyCreatedResult(key: ApiKeyDto, apiKey: string): Result {
  return {
    human: [
      `Created ${key.readOnly ? "read-only " : ""}key ${key.name} (${key.id}) for ${key.projectId}`,
      `API key (shown once): ${apiKey}`,
    ].join("\n"),
    json: { ...keyJson(key), api_key: apiKey },
  };
}

/** `key revoke`: the revoked key. */
export function keyRevokedResult(key: ApiKeyDto): Result {
  return { human: `Revoked key ${key.id} (${key.prefix}) at ${key.revokedAt}`, json: keyJson(key) };
}

/** `budget show` and `budget set`: a project's budget rules. */
export function budgetResult(projectId: string, b: BudgetRules): Result {
  const usd = (n: number | null) => (n === null ? "none" : `$${n}`);
  return {
    human: [
      `Budget of ${projectId}`,
      `  mode        ${b.mode}`,
      `  limits      ${formatLimits(b.limits)}`,
      `  thresholds  ${b.thresholds.length ? b.thresholds.map((t) => `${t} %`).join(", ") : "none"}`,
      `  run cap     ${usd(b.runSpendCapUsd)}`,
    ].join("\n"),
    json: {
      project_id: projectId,
      mode: b.mode,
      limits: b.limits,
      thresholds: b.thresholds,
      run_spend_cap_usd: b.runSpendCapUsd,
    },
  };
}

/** `org set-plan`: the organization's subscription after the move. */
export function planSetResult(sub: {
  organizationId: string;
  planSlug: string;
  planName: string;
  effectiveVersion: number;
  pinnedVersion: number | null;
}): Result {
  return {
    human: `Organization ${sub.organizationId} is now on ${sub.planName} (${sub.planSlug}) v${sub.effectiveVersion}`,
    json: {
      organization_id: sub.organizationId,
      plan: sub.planSlug,
      version: sub.effectiveVersion,
      pinned_version: sub.pinnedVersion,
    },
  };
}
