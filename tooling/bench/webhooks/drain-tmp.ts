import { Queue, Worker } from "bullmq";
import { startPrivateRedis } from "@breakwater/queue/testing";
import { createRedis, closeRedis } from "@breakwater/queue";
const redis = await startPrivateRedis(3384);
for (const drainDelay of [5, 1]) {
  const conn = createRedis(redis.url, "worker");
  const q = new Queue(`q${drainDelay}`, { connection: conn, prefix: "x" });
  const lat: number[] = [];
  const late: number[] = [];
  const w = new Worker(`q${drainDelay}`, async (job) => {
    const now = Date.now();
    if (job.data.due) late.push(now - job.data.due); else lat.push(now - job.data.t);
  }, { connection: conn, prefix: "x", drainDelay, concurrency: 8 });
  await w.waitUntilReady();
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 700));
    await q.add("j", { t: Date.now() });
  }
  for (let i = 0; i < 10; i++) {
    const delay = 500 + Math.floor(Math.random() * 3000);
    await q.add("d", { due: Date.now() + delay }, { delay });
    await new Promise((r) => setTimeout(r, 300));
  }
  await new Promise((r) => setTimeout(r, 4000));
  const s = (a: number[]) => [...a].sort((x, y) => x - y);
  console.log(`drainDelay ${drainDelay}s: immediate jobs pickup ms ${JSON.stringify(s(lat))}; delayed jobs lateness ms ${JSON.stringify(s(late))}`);
  await w.close(); await q.close(); await closeRedis(conn);
}
await redis.stop();
