/**
 * The lease workload of `npm run bench:wire` (`--only lease`, or beside the other workloads): the
 * SDK's run-lease cycle — grant, four renewals, surrender — from several holders at once, closed
 * loop, against Breakwater and against the bare reference server, which answers the very same
 * requests with one Redis EVALSHA each. Rounds alternate between the servers like the check's.
 * Reported like the check: requests/s of each side and their ratio, and the latency percentiles.
 */

const GRANT = "/api/v1/budgets/lease";
const RENEW = "/api/v1/budgets/lease/renew";
const SURRENDER = "/api/v1/budgets/lease/surrender";

export const LEASE_PLAN = { workers: 16, renewals: 4, seconds: 3, rounds: 3 } as const;

export interface LeaseSide {
  requests: number;
  cycles: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

export interface LeaseBenchResult {
  plan: typeof LEASE_PLAN;
  breakwater: LeaseSide;
  bare: LeaseSide;
  /** Breakwater's requests/s over the bare server's (closed loop, same request mix). */
  rps_ratio: number;
  p99_ratio: number;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function timedPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  samples: number[],
): Promise<{ status: number; json: Record<string, unknown> | null }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await res.text();
  samples.push(performance.now() - t0);
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {}
  return { status: res.status, json };
}

/** One closed-loop round of lease cycles against one server. */
async function round(
  base: string,
  headers: Record<string, string>,
  seconds: number,
  tag: string,
): Promise<{ samples: number[]; cycles: number; errors: number }> {
  const samples: number[] = [];
  let cycles = 0;
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async (w: number) => {
    for (let c = 0; performance.now() < until; c++) {
      const holder = `bench-${tag}-${w}-${c}`;
      const grant = await timedPost(
        `${base}${GRANT}`,
        headers,
        {
          agent_run_id: `bench-run-${tag}-${w}`,
          holder_id: holder,
          model: "gpt-4o",
          provider: "openai",
          fallback_providers: [],
          fallback_models: [],
          fail_open: true,
          estimated_input_tokens: 500,
          run_directive_version: "1",
        },
        samples,
      );
      if (grant.status !== 200) errors++;
      const leaseId = typeof grant.json?.lease_id === "string" ? grant.json.lease_id : "lse_bench";
      let generation = 1;
      for (let r = 0; r < LEASE_PLAN.renewals; r++) {
        const renew = await timedPost(
          `${base}${RENEW}`,
          headers,
          {
            lease_id: leaseId,
            holder_id: holder,
            generation,
            spent_tokens: 1200,
            reserved_tokens: 0,
            uncounted_calls: 0,
            uncounted_tokens: 0,
            run_directive_version: "1",
          },
          samples,
        );
        if (renew.status !== 200) errors++;
        generation = typeof renew.json?.generation === "number" ? renew.json.generation : generation + 1;
      }
      const done = await timedPost(
        `${base}${SURRENDER}`,
        headers,
        { lease_id: leaseId, holder_id: holder, generation, spent_tokens: 300 },
        samples,
      );
      if (done.status !== 200) errors++;
      cycles++;
    }
  };
  await Promise.all(Array.from({ length: LEASE_PLAN.workers }, (_, w) => worker(w)));
  return { samples, cycles, errors };
}

/** Runs the lease workload against both servers (interleaved rounds) and returns the comparison. */
export async function runLeaseWorkload(o: {
  ports: { breakwater: number; bare: number };
  headers: Record<string, string>;
  log: (line: string) => void;
}): Promise<LeaseBenchResult> {
  const { seconds, rounds, workers, renewals } = LEASE_PLAN;
  o.log(
    `lease: grant + ${renewals} renewals + surrender, ${workers} holders, ${rounds}×${seconds} s per side…`,
  );
  const sides = {
    breakwater: { samples: [] as number[], cycles: 0, errors: 0, ms: 0 },
    bare: { samples: [] as number[], cycles: 0, errors: 0, ms: 0 },
  };
  const order: ("breakwater" | "bare")[][] = [
    ["bare", "breakwater"],
    ["breakwater", "bare"],
  ];
  // Warm-up: one short round each (JIT, connections, the project's runtime cache).
  for (const name of ["breakwater", "bare"] as const) {
    await round(`http://127.0.0.1:${o.ports[name]}`, o.headers, 0.5, `warm-${name}`);
  }
  for (let r = 0; r < rounds; r++) {
    for (const name of order[r % 2]!) {
      const t0 = performance.now();
      const out = await round(`http://127.0.0.1:${o.ports[name]}`, o.headers, seconds, `${name}-${r}`);
      const s = sides[name];
      s.ms += performance.now() - t0;
      s.cycles += out.cycles;
      s.errors += out.errors;
      for (const x of out.samples) s.samples.push(x);
    }
  }
  const summarize = (s: (typeof sides)["bare"]): LeaseSide => {
    const sorted = s.samples.slice().sort((a, b) => a - b);
    return {
      requests: sorted.length,
      cycles: s.cycles,
      rps: Math.round((sorted.length / s.ms) * 1000),
      p50_ms: Number(percentile(sorted, 0.5).toFixed(2)),
      p99_ms: Number(percentile(sorted, 0.99).toFixed(2)),
      errors: s.errors,
    };
  };
  const breakwater = summarize(sides.breakwater);
  const bare = summarize(sides.bare);
  const result: LeaseBenchResult = {
    plan: LEASE_PLAN,
    breakwater,
    bare,
    rps_ratio: Number((breakwater.rps / Math.max(1, bare.rps)).toFixed(2)),
    p99_ratio: Number((breakwater.p99_ms / Math.max(0.001, bare.p99_ms)).toFixed(2)),
  };
  o.log(
    `lease: Breakwater ${breakwater.rps} req/s (p50 ${breakwater.p50_ms} ms, p99 ${breakwater.p99_ms} ms, ${breakwater.errors} errors) · bare ${bare.rps} req/s (p50 ${bare.p50_ms} ms, p99 ${bare.p99_ms} ms) · ratio ${result.rps_ratio}`,
  );
  return result;
}
