import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { testHarnessEnv } from "../../../packages/config/src/test-env";
import { e2eServerEnv } from "./server-env";

const repoRoot = path.resolve(__dirname, "../../..");

/** A port nothing listens on right now (the OS's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface SdkApi {
  /** Base URL of the SDK API, e.g. `http://127.0.0.1:41234` (budget checks at /api/v1/budgets/check). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the lean SDK API server as deployments run it (packages/wire/bin/breakwater-sdk-api.mjs:
 * the production bundle the e2e build made, with its node flags) on a port of its own, over the
 * e2e database and Redis; resolves once /health answers. The suite's servers (playwright.config.ts)
 * have no lean server: only the spec that needs one pays for it.
 */
export async function startSdkApi(): Promise<SdkApi> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(repoRoot, "packages", "wire", "bin", "breakwater-sdk-api.mjs")],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...e2eServerEnv(testHarnessEnv()),
        HOST: "127.0.0.1",
        SDK_PORT: String(port),
        SDK_API_WORKERS: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the SDK API server exited (${child.exitCode}):\n${output}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the SDK API server did not answer /health within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
