import { nanosToUsd } from "../budgets/money";

/**
 * An answer as the lease scripts store it (every value text, so nothing is reformatted on the way
 * through Redis): k G grant | I ineligible | D deny; m mode h|a; lim/used/rem nano-dollars of the
 * binding period; run; ir ineligible reason; dp denied period; rc stop reason (run control); id,
 * g, gt, hs, fg, ri, ll, pm, ou the lease block.
 */
export interface StoredLeaseAnswer {
  k: "G" | "I" | "D";
  m: "h" | "a";
  lim: string;
  used: string;
  rem: string;
  run: string;
  ir?: string;
  dp?: string;
  rc?: string;
  id?: string;
  g?: string;
  gt?: string;
  hs?: string;
  fg?: string;
  ri?: string;
  ll?: string;
  pm?: "h" | "a";
  ou?: string;
}

const modeName = (m: string | undefined) => (m === "h" ? "hard_deny" : "alert_only");
const usd = (nanos: string) => nanosToUsd(BigInt(nanos));

/**
 * The wire answer of a grant or renewal (spec §5: one strict shape, three populations; absent keys
 * are omitted). A pure function of the stored answer, so a replay renders the same bytes.
 */
export function renderLeaseAnswer(stored: string, projectId: string): string {
  const a = JSON.parse(stored) as StoredLeaseAnswer;
  const out: Record<string, unknown> = { eligible: a.k !== "I", allowed: a.k !== "D" };
  if (a.k === "I") out.ineligible_reason = a.ir;
  if (a.k === "D") {
    out.denied_by_period = a.dp;
    if (a.rc !== undefined)
      out.run_control = { version: "1", action: "terminate", agent_run_id: a.run, reason: a.rc };
  }
  if (a.k === "G") {
    out.lease_id = a.id;
    out.generation = Number(a.g);
    out.granted_tokens = Number(a.gt);
    out.refresh_interval_s = Number(a.ri);
    out.lease_length_s = Number(a.ll);
    out.headroom_share_tokens = Number(a.hs);
    out.posture = { mode: modeName(a.pm), on_unreachable: a.ou === "1" ? "fail_open" : "local_enforce" };
    out.final_grant = a.fg === "1";
  }
  out.project_id = projectId;
  out.mode = a.k === "D" ? "hard_deny" : modeName(a.m);
  out.budget_limit = usd(a.lim);
  out.current_usage = usd(a.used);
  out.remaining_budget = a.k === "D" && a.dp === "run_stopped" ? 0 : usd(a.rem);
  return JSON.stringify(out);
}
