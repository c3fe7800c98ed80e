import { packageConfig } from "../../vitest.shared.ts";

// The suites that exercise Redis run a second time against a Redis Cluster (`int-cluster`).
export default packageConfig({
  cluster: [
    "src/admission/admission-limiter.int.test.ts",
    "src/api-keys/authenticate-api-key.int.test.ts",
    "src/budgets/check-budget.int.test.ts",
    "src/budgets/confirm-spend.int.test.ts",
    "src/budgets/lua-slots.int.test.ts",
    "src/cache/invalidating-cache.int.test.ts",
    "src/fleet/breaker-heartbeats.int.test.ts",
    "src/fleet/fleet-counts.int.test.ts",
    "src/leases/leases.int.test.ts",
    "src/pricing/price-catalogue.int.test.ts",
    "src/rate-limit/fixed-window-limiter.int.test.ts",
    "src/runs/runs.int.test.ts",
  ],
});
