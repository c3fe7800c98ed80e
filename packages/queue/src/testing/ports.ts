import { createServer } from "node:net";
import { testHarnessEnv } from "../../../config/src/test-env";

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** Added to every range below (TEST_PORT_OFFSET; the second lane of `npm test` uses 1000). */
const offset = testHarnessEnv().TEST_PORT_OFFSET;

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
