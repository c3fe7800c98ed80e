// The dashboard port's hand-off to Next.js. server.mjs answers the SDK API itself and passes every
// other request, streamed both ways, to the Next.js process it started (next-process.mjs), over a
// Unix socket in a directory only this user can open. Next.js runs in a process of its own because
// its request handling turns on AsyncLocalStorage, and with it V8's promise hooks, for the whole
// process: every promise of every budget check would pay for them. Plain JS: server.mjs runs under
// node without a TypeScript loader.
import { Agent, request } from "node:http";

/** Written by this server on every request it hands over, overwriting any value a client sent. */
export const PEER_ADDRESS_HEADER = "x-breakwater-peer";

// Per-connection headers (RFC 9110 §7.6.1) describe one hop; they are not passed on. Transfer
// framing is redone by each side's HTTP stack. `expect` is answered by this server (Node sends the
// 100 Continue), so the upstream never waits for it.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect",
]);

/** Request headers to send upstream: the client's, less the hop-by-hop ones, plus the TCP peer. */
export function upstreamHeaders(req) {
  const out = {};
  const named = connectionNamed(req.headers.connection);
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || named.has(name) || name === PEER_ADDRESS_HEADER) continue;
    out[name] = value;
  }
  out[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  return out;
}

/** Response headers to send the client, as a flat raw list (keeps repeated Set-Cookie and the case Next.js wrote). */
export function downstreamHeaders(rawHeaders) {
  let named = new Set();
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i].toLowerCase() === "connection") named = connectionNamed(rawHeaders[i + 1]);
  const out = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  return out;
}

function connectionNamed(value) {
  const names = new Set();
  if (typeof value === "string")
    for (const token of value.split(",")) {
      const name = token.trim().toLowerCase();
      if (name) names.add(name);
    }
  return names;
}

const BAD_GATEWAY = "The dashboard is not answering. Try again in a moment.\n";

/**
 * A request handler that passes requests to the HTTP server on `socketPath`, streaming the body
 * up and the answer down (server-sent events reach the browser as Next.js writes them). A client
 * that goes away takes its upstream request with it, so Next.js sees the abort; an upstream that
 * cannot be reached is a 502.
 */
export function createNextProxy(socketPath, { onError } = {}) {
  // Connections to Next.js are reused; it keeps them open (next-process.mjs), so a reused one is
  // never closed under a request by an idle timer on the other side.
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 64 });
  const handle = (req, res) => {
    const upstream = request(
      { socketPath, agent, method: req.method, path: req.url, headers: upstreamHeaders(req) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, downstreamHeaders(answer.rawHeaders));
        // Server-sent events must not wait in Nagle's buffer or a compression window here.
        res.flushHeaders();
        answer.pipe(res);
        // Next.js went away mid-answer: the client must see a cut, not a short body that looks whole.
        answer.once("close", () => {
          if (!answer.complete) res.destroy();
        });
      },
    );
    let abandoned = false;
    upstream.once("error", (err) => {
      if (abandoned) return; // the client left first; Next.js was told by the closed connection
      onError?.(err);
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
        res.end(BAD_GATEWAY);
      } else res.destroy();
    });
    // The browser closed the tab, the EventSource or the connection: stop the work upstream.
    res.once("close", () => {
      if (res.writableFinished) return;
      abandoned = true;
      upstream.destroy();
    });
    req.pipe(upstream);
  };
  handle.close = () => agent.destroy();
  return handle;
}
