// The dashboard's production server, and its single port. The SDK API's paths (/api/v1/*, /health,
// /health/ready) are answered here by the lean SDK API server's own dispatch, bounds and keep-alive
// (@breakwater/wire's createDashboardServer), so a single-port deployment serves the SDK as fast as
// the lean server. The management API (/api/manage/v1/*, @breakwater/manage) is answered here too.
// Every other request is handed, streamed, to Next.js, which runs in a child process
// (next-process.mjs) on a private Unix socket: Next.js turns on AsyncLocalStorage, and with it
// promise hooks, process-wide, which would tax every budget check if they shared a process.
// Each handed-over request carries the TCP peer address in x-breakwater-peer (overwriting any value a
// client sent under that name). Route handlers cannot see the socket otherwise, and the sign-in
// limiter needs the real peer to decide which X-Forwarded-For entries to trust (TRUST_PROXY).
// Flags as `next start`: --port/-p, --hostname/-H. Started without the lean server's V8 flags, it
// starts itself again with them (and forwards SIGINT/SIGTERM), so `node server.mjs` is enough.
import { fork, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { SDK_API_NODE_FLAGS } from "@breakwater/wire/node-flags";
import { startWebMetricsFromEnv } from "./lib/metrics-listener.mjs";
import { createNextProxy } from "./lib/next-proxy.mjs";

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string", short: "p", default: "3000" },
      hostname: { type: "string", short: "H" },
    },
  }));
} catch (err) {
  process.stderr.write(`server.mjs: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`server.mjs: --port must be a port number, got "${values.port}"\n`);
  process.exit(2);
}

// The SDK API is answered in this process: it runs with the lean server's V8 flags
// (SDK_API_NODE_FLAGS), which V8 reads only at start, so they cannot be set from here.
if (SDK_API_NODE_FLAGS.every((f) => process.execArgv.includes(f))) await serve();
else relaunchWithFlags();

function relaunchWithFlags() {
  const child = spawn(
    process.execPath,
    [...process.execArgv, ...SDK_API_NODE_FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: ["inherit", "inherit", "inherit", "ipc"] },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

/**
 * @breakwater/wire's dashboard port: its production bundle (`npm run build -w @breakwater/wire`,
 * which turbo runs before the dashboard's build), else its TypeScript source through tsx, as the
 * lean server's launcher does. Imported at run time, so `next build` never sees it.
 */
async function loadWirePort() {
  const wireRoot = path.dirname(path.dirname(fileURLToPath(import.meta.resolve("@breakwater/wire"))));
  const built = path.join(wireRoot, "dist", "dashboard-port.mjs");
  if (existsSync(built)) return import(pathToFileURL(built).href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(pathToFileURL(path.join(wireRoot, "src", "dashboard-port.ts")).href, import.meta.url);
}

/**
 * @breakwater/manage's port (the management API under /api/manage/v1): its production bundle
 * (`npm run build -w @breakwater/manage`, which turbo runs before the dashboard's build), else its
 * TypeScript source through tsx, as loadWirePort does.
 */
async function loadManagePort() {
  const manageRoot = path.dirname(path.dirname(fileURLToPath(import.meta.resolve("@breakwater/manage"))));
  const built = path.join(manageRoot, "dist", "manage-port.mjs");
  if (existsSync(built)) return import(pathToFileURL(built).href);
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(pathToFileURL(path.join(manageRoot, "src", "manage-port.ts")).href, import.meta.url);
}

/**
 * Starts Next.js in its own process on a Unix socket in a fresh directory only this user can open
 * (so nothing else on the machine can reach it and forge x-breakwater-peer); resolves once it
 * serves requests. A Next.js process that ends while this server runs ends this server too, so a
 * supervisor restarts the pair.
 */
function startNext() {
  const dir = mkdtempSync(path.join(tmpdir(), "breakwater-web-"));
  const socketPath = path.join(dir, "next.sock");
  const child = fork(
    path.join(import.meta.dirname, "next-process.mjs"),
    [socketPath, String(port), values.hostname ?? ""],
    // Next.js runs with node's defaults, not this process's flags (nor an --inspect port it would
    // fight over).
    { stdio: "inherit", execArgv: [] },
  );
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  process.once("exit", cleanUp);
  const ready = new Promise((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code, signal) =>
      reject(new Error(`Next.js exited before serving (${signal ?? code})`)),
    );
  });
  return { child, socketPath, ready };
}

/** The dashboard's port: the SDK API answered here, everything else handed to Next.js. */
async function serve() {
  const nextjs = startNext();
  const [wire, manage] = await Promise.all([loadWirePort(), loadManagePort(), nextjs.ready]).catch((err) => {
    process.stderr.write(`server.mjs: ${err instanceof Error ? err.message : String(err)}\n`);
    nextjs.child.kill("SIGTERM");
    process.exit(1);
  });
  const toNext = createNextProxy(nextjs.socketPath, {
    onError: (err) => process.stderr.write(`server.mjs: Next.js did not answer: ${err.message}\n`),
  });

  let timeoutMs;
  try {
    timeoutMs = wire.shutdownTimeoutMs();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    nextjs.child.kill("SIGTERM");
    process.exit(1);
  }

  let stopping = false;
  nextjs.child.once("exit", (code, signal) => {
    if (stopping) return;
    process.stderr.write(`server.mjs: the Next.js process ended (${signal ?? code}); stopping\n`);
    process.exit(1);
  });

  // Keep-alive (65 s, longer than common load-balancer idle timeouts), the header/request deadlines
  // and the connection cap are the lean SDK API server's, for the dashboard's requests too.
  // The management API (/api/manage/v1) is answered in this process too, never handed to Next.js.
  const server = wire.createDashboardServer((msg, res) =>
    manage.isManagePath(msg.url ?? "/") ? manage.serveManage(msg, res) : toNext(msg, res),
  );
  startWebMetricsFromEnv(server); // Prometheus /metrics on WEB_METRICS_PORT, when set
  server.listen(port, values.hostname, () => {
    process.stdout.write(`Dashboard listening on http://${values.hostname ?? "0.0.0.0"}:${port}\n`);
  });
  const stopNext = () =>
    new Promise((resolve) => {
      if (nextjs.child.exitCode !== null || nextjs.child.signalCode !== null) return resolve();
      nextjs.child.once("exit", () => resolve());
      nextjs.child.kill("SIGTERM");
    });
  const log = {
    info: (fields, msg) => process.stdout.write(`server.mjs: ${msg} ${JSON.stringify(fields)}\n`),
    error: (fields, msg) => process.stderr.write(`server.mjs: ${msg} ${JSON.stringify(fields)}\n`),
  };
  // Drain the port first (new connections refused, requests in flight answered, Next.js still
  // running behind it), then stop Next.js and close the SDK and management runtimes; exit within
  // SHUTDOWN_TIMEOUT_MS.
  // Ctrl-C reaches this process twice (from the terminal and from the launcher): it runs once.
  const stop = wire.exitOnce({
    timeoutMs,
    log,
    run: async (reason) => {
      stopping = true;
      const clean = await wire.stopDashboardPort(server, {
        timeoutMs,
        stopApp: stopNext,
        // The SDK runtime and the management API's (pending last-used times, rate-limit Redis).
        closeRuntime: () => Promise.all([wire.closeSharedWireRuntime(), manage.closeManage()]).then(() => {}),
        onStopAccepting: () => log.info({ reason, timeoutMs }, "dashboard draining"),
      });
      toNext.close();
      log.info({ clean }, "dashboard stopped");
      return clean;
    },
  });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
  // Started by the launcher above: stop with it, however it ended (even SIGKILL), never orphaned
  // on the port.
  if (process.channel) {
    process.once("disconnect", () => stop("parent gone"));
    process.channel.unref();
  }
}
