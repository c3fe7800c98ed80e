// The V8 flags the SDK API is served with, wherever it runs: the lean server's launcher
// (breakwater-sdk-api.mjs), the dashboard's port (apps/web/server.mjs, which answers the SDK API
// in its own process) and the benches that start either as deployed. V8 reads them only at start.
//
// A larger young generation: the check allocates short-lived objects and scavenges less often.
// At its full size from the start (min = max): V8 otherwise grows it in steps as load comes and
// shrinks it when idle, so a server's RSS moved by tens of MB with no change in what it holds
// (a 30-minute soak's SDK API workers stepped 185 → 249 MB while their heaps stayed flat).
// No allocation-site pretenuring: sites V8 tenured while the server warmed up kept allocating a
// request's objects in old space, where, dead, they held each scavenge's young objects alive
// until a full GC (scavenges kept ~350 KB and paused ~3 ms; without it 43 KB and ~1.7 ms).
export const SDK_API_NODE_FLAGS = [
  "--max-semi-space-size=32",
  "--min-semi-space-size=32",
  "--no-allocation-site-pretenuring",
];
