import {
  createOrganization,
  createProject,
  createWebhookEndpoint,
  recordBreakerReport,
} from "@breakwater/core";
import { startPrivateRedis, startWebhookReceiver } from "@breakwater/queue/testing";
import { describe, expect, it } from "vitest";
import { harnessConfig, producerDeps, spawnWorker, sysCtx } from "./worker-harness";

describe("worker shutdown", () => {
  it("SIGTERM: idle worker exits 0 at once; with a hanging delivery it exits after the bounded wait", {
    timeout: 60_000,
  }, async () => {
    const redis = await startPrivateRedis();
    // Hangs only on this run's project: leftovers of earlier runs in the shared test database are
    // retried by any worker and must not make the "idle" worker busy.
    let hangFor = "none";
    const receiver = await startWebhookReceiver({
      port: 0,
      verify: () => true,
      behaviour: ({ body }) => (body.includes(hangFor) ? "hang" : { status: 200 }),
    });
    const config = harnessConfig(redis.url);
    const deps = producerDeps(config);
    try {
      let worker = await spawnWorker(config);
      let t = Date.now();
      expect(await worker.stop("SIGTERM")).toBe(0);
      const idleStop = Date.now() - t;
      // Well under the 10 s a busy worker waits (below): a loaded 2-core CI machine measured 3.07 s.
      expect(idleStop).toBeLessThan(5_000);

      worker = await spawnWorker(config);
      const sys = sysCtx(deps);
      const org = await createOrganization(sys, { name: `Shutdown ${Date.now()}`, planSlug: "team" });
      const project = await createProject(sys, { organizationId: org.id, name: "svc" });
      hangFor = project.id;
      await createWebhookEndpoint(sys, { organizationId: org.id, url: receiver.url });
      await recordBreakerReport(deps, {
        projectId: project.id,
        provider: "openai",
        sdkInstanceId: "i-1",
        state: "open",
        failureCount: 5,
        successCount: 0,
        reportedAt: new Date(),
      });
      // The delivery is now stuck on the receiver.
      await receiver.waitFor((r) => r.some((x) => x.body.includes(project.id)), 10_000);
      t = Date.now();
      const code = await worker.stop("SIGTERM");
      const busyStop = Date.now() - t;
      console.log(`shutdown: idle ${idleStop} ms; with a hanging delivery ${busyStop} ms (exit ${code})`);
      // 10 s for active jobs, then it lets go (the stall check hands the job to the next worker).
      expect(busyStop).toBeGreaterThanOrEqual(9_000);
      expect(busyStop).toBeLessThan(13_000);
      expect(code).toBe(1);
    } finally {
      await receiver.close();
      await deps.close();
      await redis.stop();
    }
  });
});
