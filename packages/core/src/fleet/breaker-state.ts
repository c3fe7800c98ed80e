/**
 * The vocabulary of breaker state every fleet and incident module shares: the SDK's circuit states,
 * the dashboard link a breaker or incident event carries, and an episode's length. It imports
 * nothing, so the report path, the live push and the incident evaluator all depend on it and
 * never on each other.
 */
export const CIRCUIT_STATES = ["closed", "open", "half_open"] as const;
export type CircuitState = (typeof CIRCUIT_STATES)[number];

/** The dashboard page a breaker event links to. */
export function fleetDashboardUrl(publicUrl: string, projectId: string, provider: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/fleet/${projectId}/${encodeURIComponent(provider)}`;
}

/** Episode length in seconds, to the millisecond. */
export function durationSeconds(from: Date, to: Date): number {
  return Math.max(0, Math.round(to.getTime() - from.getTime())) / 1000;
}
