/**
 * The shape `usage.overview` answers (money as decimal strings, dates as ISO strings), as the page
 * reads it. Declared here until the router's own exported type replaces it.
 */
export interface UsageOverview {
  range: { from: string; to: string };
  rolledUpTo: string | null;
  totals: {
    calls: number;
    errors: number;
    deniedCalls: number;
    fallbackCalls: number;
    savedByFallbackCalls: number;
    unpricedCalls: number;
    unpricedInputTokens: number;
    unpricedOutputTokens: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: string;
    avoidedCostUsd: string;
  };
  series: {
    bucket: string;
    calls: number;
    costUsd: string;
    deniedCalls: number;
    fallbackCalls: number;
    unpricedCalls: number;
  }[];
  byProvider: {
    provider: string;
    calls: number;
    errors: number;
    costUsd: string;
    unpricedCalls: number;
    p50LatencyMs: number | null;
    p95LatencyMs: number | null;
  }[];
  byModel: {
    provider: string;
    model: string;
    calls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: string | null;
    unpricedCalls: number;
  }[];
  byTag: {
    key: string;
    value: string;
    calls: number;
    costUsd: string;
    unpricedCalls: number;
    inputTokens: number;
    outputTokens: number;
  }[];
  byRun: {
    projectId: string;
    agentRunId: string;
    name: string | null;
    calls: number;
    costUsd: string;
    avoidedCostUsd: string;
    stopped: boolean;
  }[];
  failoversByReason: { reason: string; calls: number; saved: number }[];
  limits: {
    projectId: string;
    projectName: string;
    period: string;
    limitUsd: string;
    spentUsd: string;
    windowStart: string;
    windowEnd: string;
    percent: number;
  }[];
}
