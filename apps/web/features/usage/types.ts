/** The answer of `usage.overview` (money as decimal strings, instants as ISO strings). */
export type { UsageOverview } from "@breakwater/api";
