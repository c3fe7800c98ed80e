/**
 * Redis key layout of the budget engine. Every key of a project carries the `{projectId}` hash tag,
 * so all of a project's keys live in one Redis Cluster slot: one Lua script per check/confirm/ingest
 * touches a single slot, and projects spread across the cluster.
 */
export function budgetPrefix(projectId: string): string {
  return `bw:bud:{${projectId}}:`;
}

export interface BudgetKeys {
  prefix: string;
  /**
   * HASH of "built" markers: `p` = project counters rebuilt from Postgres; `t:<ruleRef>` per tag
   * rule version; `x` = the hold floor (see the check script); on a cluster `n` = the id of the
   * node whose rebuild wrote `p` (see promoted-masters.ts).
   */
  built: string;
  /** Rebuild lock (SET NX PX). */
  lock: string;
  /** ZSET hold id → expiry ms (reservations and uncounted-tally holds). */
  holds: string;
  /** HASH hold id → JSON record {a: amount nanos, r: run id, t: [ruleRef:period…]}. */
  holdRecords: string;
  /** HASH of outstanding held nanos: `p` (project), `r:<runId>`, `t:<ruleRef>`. */
  heldSums: string;
  /** ZSET settled reservation id → expiry ms (replays with a new call_id are duplicates, not 404s). */
  settled: string;
  /** HASH call_id → reservation id of confirms already applied; ZSET `confirmedExp` carries expiry. */
  confirmed: string;
  confirmedExp: string;
  /** HASH call_id → JSON {a, k: [counter keys]} of a confirm's provisional amount awaiting ingest. */
  provisional: string;
  provisionalExp: string;
  /** ZSET call_id → expiry ms: calls whose metadata event has moved the counters. */
  ingestedCalls: string;
  /** ZSET `call_id#attempt` → expiry ms: events already applied (replays and rebuild stragglers). */
  seenEvents: string;
  /** Usage counter of a window (`d:…`, `w:…`, `m:…`). */
  usage(windowKey: string): string;
  /** Lifetime spend of one agent run. */
  run(agentRunId: string): string;
  /** Spend of a tag rule version in a window. */
  tag(ruleRef: string, windowKey: string): string;
}

/** All key names of one project. */
export function budgetKeys(projectId: string): BudgetKeys {
  const p = budgetPrefix(projectId);
  return {
    prefix: p,
    built: `${p}built`,
    lock: `${p}lock`,
    holds: `${p}holds`,
    holdRecords: `${p}holdrec`,
    heldSums: `${p}held`,
    settled: `${p}settled`,
    confirmed: `${p}cf`,
    confirmedExp: `${p}cfx`,
    provisional: `${p}prov`,
    provisionalExp: `${p}provx`,
    ingestedCalls: `${p}icall`,
    seenEvents: `${p}seen`,
    usage: (w) => `${p}u:${w}`,
    run: (r) => `${p}run:${r}`,
    tag: (ref, w) => `${p}t:${ref}:${w}`,
  };
}
