import type { Tx } from "@breakwater/db";
import { FEATURES } from "../entitlements/features";
import { prismaSqlRun, type SqlRun } from "../sql-run";

export interface BreakerEventContext {
  projectName: string;
  organizationId: string;
  /** The effective breaker_webhooks entitlement of the project at `now`. */
  breakerWebhooks: boolean;
}

/**
 * The project's name, organization and effective breaker_webhooks in one query, for the moment a
 * breaker event fires (see loadWebhookEventContext).
 */
export async function loadBreakerEventContext(
  tx: Tx,
  projectId: string,
  now: Date,
): Promise<BreakerEventContext> {
  return breakerEventContext(prismaSqlRun(tx), projectId, now);
}

/** loadBreakerEventContext on any connection inside a transaction (see SqlRun). */
export async function breakerEventContext(
  q: SqlRun,
  projectId: string,
  now: Date,
): Promise<BreakerEventContext> {
  const c = await webhookEventContext(q, projectId, now, "breaker_webhooks");
  return { projectName: c.projectName, organizationId: c.organizationId, breakerWebhooks: c.enabled };
}

/**
 * The project's name, organization and the effective value of a boolean webhook feature in one
 * query, for the moment an event fires: project override > organization override > plan version
 * (pinned, else the latest) > feature default — the order of resolveEntitlements, where the newest
 * unexpired override of a scope wins and values of the wrong type are ignored (a test holds the two equal).
 */
export async function loadWebhookEventContext(
  tx: Tx,
  projectId: string,
  now: Date,
  feature: "breaker_webhooks" | "budget_webhooks",
): Promise<{ projectName: string; organizationId: string; enabled: boolean }> {
  return webhookEventContext(prismaSqlRun(tx), projectId, now, feature);
}

/** loadWebhookEventContext on any connection inside a transaction (see SqlRun). */
export async function webhookEventContext(
  q: SqlRun,
  projectId: string,
  now: Date,
  feature: "breaker_webhooks" | "budget_webhooks",
): Promise<{ projectName: string; organizationId: string; enabled: boolean }> {
  const fallback = FEATURES[feature].default;
  const rows = await q<{ project_name: string; organization_id: string; enabled: boolean }>(
    `SELECT p.name AS project_name, p.organization_id,
      coalesce(
        (SELECT (o.value)::text::boolean FROM entitlement_overrides o
          WHERE o.organization_id = p.organization_id AND o.project_id = p.id
            AND o.feature_key = $2 AND jsonb_typeof(o.value) = 'boolean'
            AND (o.expires_at IS NULL OR o.expires_at > $3::timestamptz)
          ORDER BY o.created_at DESC LIMIT 1),
        (SELECT (o.value)::text::boolean FROM entitlement_overrides o
          WHERE o.organization_id = p.organization_id AND o.project_id IS NULL
            AND o.feature_key = $2 AND jsonb_typeof(o.value) = 'boolean'
            AND (o.expires_at IS NULL OR o.expires_at > $3::timestamptz)
          ORDER BY o.created_at DESC LIMIT 1),
        (SELECT (pe.value)::text::boolean FROM subscriptions s
          JOIN plan_entitlements pe ON pe.feature_key = $2 AND jsonb_typeof(pe.value) = 'boolean'
            AND pe.plan_version_id = coalesce(s.pinned_plan_version_id,
              (SELECT v.id FROM plan_versions v WHERE v.plan_id = s.plan_id ORDER BY v.version DESC LIMIT 1))
          WHERE s.organization_id = p.organization_id),
        $4::boolean
      ) AS enabled
    FROM projects p WHERE p.id = $1`,
    [projectId, feature, now.toISOString(), fallback],
  );
  const row = rows[0];
  if (!row) throw new Error(`project ${projectId} not found`);
  return { projectName: row.project_name, organizationId: row.organization_id, enabled: row.enabled };
}
