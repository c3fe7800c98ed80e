import { createServer } from "node:net";

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/**
 * Added to every range below: the integration stage runs two lanes of suites side by side
 * (tooling/scripts/test-suites.ts) and gives the second lane ranges of its own, so a port one lane has
 * just found free is never the one the other lane binds next.
 */
const offset = Number(process.env.TEST_PORT_OFFSET ?? 0) || 0;

/**
 * A free TCP port in [lo, hi] (the worker/webhooks test range by default; shifted by
 * TEST_PORT_OFFSET), tried in random order so that two test runs on one machine rarely race for
 * the same one.
 */
export async function freePort(lo = 3340, hi = 3399): Promise<number> {
  lo += offset;
  hi += offset;
  const ports = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).sort(() => Math.random() - 0.5);
  for (const p of ports) if (await isFree(p)) return p;
  throw new Error(`no free port in ${lo}-${hi}`);
}
