/** The closed catalogue of features a plan can grant. `null` on a limit feature means unlimited. */
export const FEATURES = {
  failover_tuning: {
    type: "bool",
    default: false,
    description: "The versioned failover directive lets SDKs apply the customer's own tuning",
  },
  breaker_webhooks: {
    type: "bool",
    default: false,
    description: "circuit_breaker_opened / circuit_breaker_closed delivery",
  },
  budget_webhooks: { type: "bool", default: false, description: "Budget threshold events" },
  max_projects: { type: "limit", default: 1, description: "Hard limit on projects (null = unlimited)" },
  included_requests_month: {
    type: "int",
    default: 5000,
    description: "Soft monthly request quota; overage is counted, never blocked",
  },
  retention_days: { type: "int", default: 7, description: "How long raw metadata events are kept" },
  max_webhook_endpoints: { type: "int", default: 0, description: "Webhook endpoints per organization" },
  audit_log_days: { type: "int", default: 7, description: "How long audit events are shown" },
  admission_rate_per_second: {
    type: "int",
    default: 200,
    description: "Per-project admission limit on SDK API requests (429 beyond it)",
  },
} as const satisfies Record<
  string,
  { type: "bool" | "int" | "limit"; default: boolean | number | null; description: string }
>;

export type FeatureKey = keyof typeof FEATURES;
export type FeatureValue = boolean | number | null;
export type Entitlements = {
  [K in FeatureKey]: (typeof FEATURES)[K]["type"] extends "bool" ? boolean : number | null;
};

export const FEATURE_KEYS = Object.keys(FEATURES) as FeatureKey[];

export function isFeatureKey(key: string): key is FeatureKey {
  return Object.hasOwn(FEATURES, key);
}

/** Checks a JSON value against a feature's type; returns a message when it does not fit. */
export function validateFeatureValue(key: FeatureKey, value: unknown): string | null {
  const type = FEATURES[key].type;
  if (type === "bool") return typeof value === "boolean" ? null : `${key} must be true or false`;
  if (type === "limit" && value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    return type === "limit"
      ? `${key} must be a whole number ≥ 0 or unlimited`
      : `${key} must be a whole number ≥ 0`;
  }
  return null;
}

export function defaultEntitlements(): Entitlements {
  return Object.fromEntries(FEATURE_KEYS.map((k) => [k, FEATURES[k].default])) as Entitlements;
}
