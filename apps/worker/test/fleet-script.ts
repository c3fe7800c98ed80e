import { type BreakerReportInput, type Deps, recordBreakerReport } from "@breakwater/core";

type State = BreakerReportInput["state"];
/** One scripted report: [instance key, state, seconds after the script's start]. */
export type Step = { key: string; state: State; at: number; dup?: boolean };

export interface FleetKey {
  projectId: string;
  provider: string;
  sdkInstanceId: string;
}

/**
 * A fleet in which every rule shows up: duplicates (sent concurrently), an out-of-order older
 * report, a flapping breaker, half_open episodes, heartbeats, and an instance that dies while open.
 * Each entry is sent in list order; `dup` sends it twice at once.
 */
export function fleetScript(): { rounds: Step[][]; expectedPairs: number; dying: string[] } {
  const rounds: Step[][] = [
    [
      { key: "A/openai/i1", state: "closed", at: 0 },
      { key: "A/openai/i2", state: "closed", at: 0 },
      { key: "A/anthropic/i1", state: "open", at: 0 }, // first report already open: previous_state null
      { key: "A/anthropic/i3", state: "closed", at: 40 }, // arrives before an older "open" below
      { key: "B/google/i4", state: "half_open", at: 0 }, // half_open with no episode opens one
      { key: "B/openai/i5", state: "closed", at: 0 },
    ],
    [
      { key: "A/openai/i1", state: "open", at: 10, dup: true },
      { key: "A/openai/i2", state: "open", at: 1 },
      { key: "A/anthropic/i3", state: "open", at: 20 }, // older than the stored 40: ignored
      { key: "B/google/i4", state: "closed", at: 10, dup: true },
    ],
    [
      { key: "A/openai/i1", state: "open", at: 10 }, // late duplicate
      { key: "A/openai/i2", state: "closed", at: 2 },
      { key: "A/anthropic/i1", state: "open", at: 60 }, // heartbeat, then the instance dies
      { key: "B/openai/i5", state: "closed", at: 60 }, // heartbeat
    ],
    [
      { key: "A/openai/i1", state: "half_open", at: 20 },
      { key: "A/openai/i2", state: "open", at: 3 },
    ],
    [
      { key: "A/openai/i1", state: "closed", at: 5 }, // out of order: older than 20, ignored
      { key: "A/openai/i2", state: "half_open", at: 4 },
    ],
    [
      { key: "A/openai/i1", state: "closed", at: 30, dup: true },
      { key: "A/openai/i2", state: "open", at: 5 },
    ],
    [{ key: "A/openai/i2", state: "closed", at: 6 }],
    [{ key: "A/openai/i2", state: "open", at: 7 }],
    [{ key: "A/openai/i2", state: "closed", at: 8, dup: true }],
  ];
  // i1: 1 episode; i2 flapping: 3; anthropic/i1 dies open: 1 (instance_expired); i3: 0; i4: 1; i5: 0.
  return { rounds, expectedPairs: 6, dying: ["A/anthropic/i1"] };
}

/** Plays rounds (each round's reports concurrently, duplicates included) through recordBreakerReport. */
export async function playRounds(
  deps: Deps,
  rounds: Step[][],
  resolve: (key: string) => FleetKey,
  t0: number,
  pauseMs = 30,
): Promise<void> {
  for (const round of rounds) {
    await Promise.all(
      round.flatMap((s) => {
        const send = () =>
          recordBreakerReport(deps, {
            ...resolve(s.key),
            state: s.state,
            failureCount: s.state === "closed" ? 0 : 5,
            successCount: s.state === "closed" ? 3 : 0,
            reportedAt: new Date(t0 + s.at * 1000),
          });
        return s.dup ? [send(), send()] : [send()];
      }),
    );
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}
