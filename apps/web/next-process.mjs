// Next.js's own process, started by server.mjs (never run by hand): the dashboard's pages, tRPC,
// sign-in and server-sent events, served on the Unix socket server.mjs passes requests to.
// Arguments: <socket path> <port> [hostname] — the port and hostname are the public ones, which
// Next.js uses to build its own URLs. server.mjs is told "ready" once requests can be served; the
// process ends when server.mjs does (the IPC channel closes) or on SIGTERM/SIGINT.
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import next from "next";

const [socketPath, port, hostname] = process.argv.slice(2);
if (!socketPath || !port || typeof process.send !== "function") {
  process.stderr.write("next-process.mjs is started by server.mjs\n");
  process.exit(2);
}

const app = next({
  dev: false,
  dir: import.meta.dirname,
  hostname: hostname || undefined,
  port: Number(port),
});
const handle = app.getRequestHandler();
await app.prepare();
// Route handlers trust x-breakwater-peer only when the dashboard's server set it (see
// createAuthHandler): here every request comes through server.mjs, which always overwrites it.
globalThis.__breakwaterPeerHeader = true;

const server = createServer((req, res) => handle(req, res));
// The only client is server.mjs, which reuses its connections: no idle timeout, so a connection is
// never closed while server.mjs is sending a request on it. Request deadlines are server.mjs's.
server.keepAliveTimeout = 0;
server.requestTimeout = 0;
server.listen(socketPath, () => process.send({ ready: true }));

// The socket's private directory goes with this process, however server.mjs ended.
process.once("exit", () => rmSync(path.dirname(socketPath), { recursive: true, force: true }));
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.once("disconnect", stop);
process.once("SIGTERM", stop);
// Ctrl-C reaches the whole process group: server.mjs handles it and stops this process in turn.
process.on("SIGINT", () => {});
