/**
 * Seconds each workspace's integration suites took in `npm run test:int` on the 2-core machine,
 * in two lanes (2026-12-04). Only their order matters: the heaviest are placed first.
 */
export const SUITE_SECONDS: Record<string, number> = {
  "@breakwater/worker": 176,
  "@breakwater/wire": 122,
  "@breakwater/core": 77,
  "@breakwater/tooling": 71,
  "@breakwater/api": 61,
  "@breakwater/manage": 16,
  "@breakwater/queue": 12,
  "@breakwater/db": 5,
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
