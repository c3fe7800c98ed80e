/**
 * Vitest global setup of the `int-cluster` projects: points REDIS_CLUSTER_NODES (which the suites'
 * config reads, so every client they make comes from the factory as a Cluster) at the test cluster
 * — TEST_REDIS_CLUSTER_NODES when a healthy cluster answers there (`.ci/run` starts one), else a
 * private loopback cluster started for this run and stopped after it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { testHarnessEnv } from "../../../config/src/test-env";
import { startPrivateCluster } from "./private-cluster";

const exec = promisify(execFile);

async function healthy(nodes: string): Promise<boolean> {
  const first = nodes.split(",")[0]?.trim();
  if (!first) return false;
  const i = first.lastIndexOf(":");
  try {
    const { stdout } = await exec(
      "redis-cli",
      ["-h", first.slice(0, i), "-p", first.slice(i + 1), "cluster", "info"],
      { timeout: 2_000 },
    );
    return stdout.includes("cluster_state:ok");
  } catch {
    return false;
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const wanted = testHarnessEnv().TEST_REDIS_CLUSTER_NODES;
  if (await healthy(wanted)) {
    process.env.REDIS_CLUSTER_NODES = wanted;
    return undefined;
  }
  const cluster = await startPrivateCluster();
  process.env.REDIS_CLUSTER_NODES = cluster.nodes;
  return () => cluster.stop();
}
