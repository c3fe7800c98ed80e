import type { FeatureKey, FeatureValue } from "../entitlements/features";

export interface PlanSeed {
  slug: string;
  name: string;
  priceCents: number;
  entitlements: Record<FeatureKey, FeatureValue>;
}

/** The four seeded plans (operator-editable afterwards); figures from the seed product's public price list. */
export const DEFAULT_PLANS: PlanSeed[] = [
  {
    slug: "free",
    name: "Free",
    priceCents: 0,
    entitlements: {
      failover_tuning: false,
      breaker_webhooks: false,
      budget_webhooks: false,
      max_projects: 1,
      included_requests_month: 5_000,
      retention_days: 7,
      max_webhook_endpoints: 0,
      audit_log_days: 7,
      admission_rate_per_second: 50,
    },
  },
  {
    slug: "solo",
    name: "Solo",
    priceCents: 4_900,
    entitlements: {
      failover_tuning: true,
      breaker_webhooks: true,
      budget_webhooks: true,
      max_projects: 3,
      included_requests_month: 50_000,
      retention_days: 30,
      max_webhook_endpoints: 3,
      audit_log_days: 30,
      admission_rate_per_second: 200,
    },
  },
  {
    slug: "team",
    name: "Team",
    priceCents: 14_900,
    entitlements: {
      failover_tuning: true,
      breaker_webhooks: true,
      budget_webhooks: true,
      max_projects: 10,
      included_requests_month: 500_000,
      retention_days: 90,
      max_webhook_endpoints: 10,
      audit_log_days: 90,
      admission_rate_per_second: 1_000,
    },
  },
  {
    slug: "business",
    name: "Business",
    priceCents: 39_900,
    entitlements: {
      failover_tuning: true,
      breaker_webhooks: true,
      budget_webhooks: true,
      max_projects: null,
      included_requests_month: 5_000_000,
      retention_days: 365,
      max_webhook_endpoints: 50,
      audit_log_days: 365,
      admission_rate_per_second: 5_000,
    },
  },
];
