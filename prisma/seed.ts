/**
 * `npx tsx prisma/seed.ts` (also `npm run -s bw -- seed`, and what `npm start` runs after migrating):
 * default plans, the price catalogue, and the demo organization/project/key. Idempotent.
 */
import { loadConfigOrExit } from "@breakwater/config";
import { systemCtx } from "@breakwater/core";
import { createToolDeps, dataDir, seed } from "@breakwater/tooling";

const config = loadConfigOrExit();
const deps = createToolDeps(config, "seed");
try {
  const result = await seed(systemCtx(deps, "seed"), { dataDir });
  console.log(`seed: plans ${result.plans.join(", ")}`);
  const pc = result.priceCatalogue;
  console.log(
    `seed: price cards ${pc.created} created, ${pc.refreshed} refreshed, ${pc.unchanged} unchanged`,
  );
  if (result.demo) {
    console.log(
      `seed: demo project ${result.demo.projectId}, key ${result.demo.minted ? "minted" : "reused"}`,
    );
    console.log(`seed: demo key in ${result.demo.keyFile}`);
  }
} finally {
  await deps.db.$disconnect();
}
