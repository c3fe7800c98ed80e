/**
 * Seconds each workspace's integration suites took in `npm test`'s two lanes on the 2-core machine
 * (2026-12-07, after the drain, worker, promotion and management suites joined). Only their order
 * matters: the heaviest are placed first.
 */
export const SUITE_SECONDS: Record<string, number> = {
  "@breakwater/wire": 200,
  "@breakwater/core": 150,
  "@breakwater/worker": 144,
  "@breakwater/tooling": 130,
  "@breakwater/api": 80,
  "@breakwater/manage": 20,
  "@breakwater/queue": 11,
  "@breakwater/db": 6,
  "@breakwater/web": 1,
  "@breakwater/config": 1,
};

/** A workspace not in the table counts as this many seconds. */
const UNKNOWN_SECONDS = 30;

/**
 * Splits workspaces into `count` lanes of about equal time: heaviest first, each into the lane that
 * has the least so far (ties to the lower lane). Every workspace lands in exactly one lane.
 */
export function planLanes(names: string[], count = 2, seconds = SUITE_SECONDS): string[][] {
  const weight = (n: string) => seconds[n] ?? UNKNOWN_SECONDS;
  const lanes = Array.from({ length: count }, () => ({ names: [] as string[], total: 0 }));
  const ordered = [...names].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  for (const name of ordered) {
    const lane = lanes.reduce((min, l) => (l.total < min.total ? l : min));
    lane.names.push(name);
    lane.total += weight(name);
  }
  return lanes.map((l) => l.names);
}
