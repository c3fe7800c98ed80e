/** Output of CLI commands: both forms (a human table, one JSON value), free of database code. */
import type { PlanDto } from "@breakwater/core/plans/list-plans";

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
