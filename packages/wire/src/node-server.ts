import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { Server as NetServer } from "node:net";
import type { Logger } from "pino";
import type { WireResult } from "./errors";
import { pathOf, type WireRequest } from "./http";

/** Header lookup over a Node IncomingMessage's parsed headers (fetch Headers semantics for get). */
class NodeHeaders {
  constructor(private readonly h: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }
}

/** A WireRequest over a Node IncomingMessage (no fetch Request allocation on the hot path). */
class NodeWireRequest implements WireRequest {
  readonly headers: NodeHeaders;
  authed: WireRequest["authed"] = undefined;
  constructor(private readonly msg: IncomingMessage) {
    this.headers = new NodeHeaders(msg.headers);
  }
  get method() {
    return this.msg.method ?? "GET";
  }
  get url() {
    return this.msg.url ?? "/";
  }
  readBody(limit: number): Promise<Uint8Array | null> {
    const msg = this.msg;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      msg.on("data", (chunk: Buffer) => {
        if (over) return;
        size += chunk.length;
        if (size > limit) {
          over = true;
          chunks.length = 0;
          resolve(null); // answer 413 now; the rest is drained and discarded
          return;
        }
        chunks.push(chunk);
      });
      msg.on("end", () => {
        if (!over) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      });
      msg.on("error", reject);
    });
  }
}

function write(res: ServerResponse, r: WireResult): void {
  // A flat [name, value, …] header list skips Node's per-header object bookkeeping.
  const headers: string[] = [];
  if (r.body !== null)
    headers.push("content-type", "application/json", "content-length", String(Buffer.byteLength(r.body)));
  if (r.headers) for (const k in r.headers) headers.push(k, r.headers[k]!);
  res.writeHead(r.status, headers);
  res.end(r.body ?? undefined);
}

export interface WireServerOptions {
  log?: Logger;
  /** Open connections at once; further ones are closed on arrival (default 10,000). */
  maxConnections?: number;
  /** Milliseconds a client has to send a request's headers (default 10 s). */
  headersTimeoutMs?: number;
  /** Milliseconds a client has to send a whole request (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * Another application on the same port (the dashboard): requests outside the SDK API's paths
   * (`/api/v1`, `/api/v1/*`, `/health`, `/health/ready`) go to it instead of `dispatch`.
   */
  fallback?: (msg: IncomingMessage, res: ServerResponse) => void;
}

/** Whether a request target is the SDK API's: everything under /api/v1 (unknown paths there get the API's JSON 404) and the health probes. */
export function isWirePath(url: string): boolean {
  const path = pathOf(url);
  return path.startsWith("/api/v1/") || path === "/api/v1" || path === "/health" || path === "/health/ready";
}

export interface DrainResult {
  /** Every connection ended by itself (false: the ones left were cut at the deadline). */
  clean: boolean;
  /** Milliseconds from the start of the drain to its end. */
  ms: number;
}

export interface DrainOptions {
  timeoutMs: number;
  idleGraceMs?: number;
  onStopAccepting?: () => void;
}

/** A server of the SDK API that can be drained (see `drain`). */
export interface WireServer extends Server {
  /**
   * Stops the server gracefully, once (later calls return the same promise): the listening socket
   * closes (new connections are refused rather than reset) after one more turn of the event loop,
   * which accepts the connections a client completed before the drain began (closing a listener
   * resets the ones still in its backlog); every response written from now on says
   * `Connection: close` and its connection closes after it; connections left idle are closed after
   * `idleGraceMs` (default a third of the timeout, at most 3 s), so a request a client is sending
   * on one just now is still read and answered, and a client that picks them from its pool now and
   * then gets a `Connection: close` answer on each rather than a connection closed under it; the drain resolves when the last connection has
   * ended, or at `timeoutMs` after cutting the ones left. `onStopAccepting` runs once the listener
   * is closed.
   */
  drain(opts: DrainOptions): Promise<DrainResult>;
  /** True once `drain` has been called. */
  readonly draining: boolean;
}

/**
 * The lean SDK API server: node:http in front of the very same handler functions the Next.js
 * routes mount — no framework between the socket and the handler, which is what the budget
 * check's latency budget wants. Bounded against unauthenticated load: a connection cap, and
 * clients that trickle headers or bodies are cut off. A request refused from its headers (401)
 * is answered at once; Node discards the unread body without buffering it.
 */
export function createWireServer(
  dispatch: (req: WireRequest) => Promise<WireResult>,
  opts: WireServerOptions = {},
): WireServer {
  const { log } = opts;
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  // Node enforces both timeouts on a sweep (every 30 s by default): a sweep every second, so a
  // slow client is cut off near its deadline rather than up to 30 s later.
  const connectionsCheckingInterval = Math.min(1_000, Math.max(50, headersTimeout / 4));
  const { fallback } = opts;
  // Set by drain(): every answer written from then on closes its connection (Connection: close).
  let draining = false;
  // The other application's answers in progress (their headers are written when it answers): a
  // drain marks the ones whose headers are not out yet. The SDK API's own answers check `draining`
  // when they are written, so its hot path keeps no such set.
  const fallbackInFlight = new Set<ServerResponse>();
  const server = createServer({ connectionsCheckingInterval }, (msg, res) => {
    if (fallback && !isWirePath(msg.url ?? "/")) {
      if (draining) res.shouldKeepAlive = false;
      else {
        fallbackInFlight.add(res);
        res.once("close", () => fallbackInFlight.delete(res));
      }
      return fallback(msg, res);
    }
    dispatch(new NodeWireRequest(msg)).then(
      (r) => {
        if (draining) res.shouldKeepAlive = false;
        write(res, r);
      },
      (err: unknown) => {
        log?.error({ err }, "unhandled SDK request failure");
        if (draining) res.shouldKeepAlive = false;
        if (!res.headersSent) write(res, { status: 500, body: '{"detail":"Internal Server Error"}' });
        else res.destroy();
      },
    );
  }) as WireServer;
  // Longer than common load-balancer idle timeouts, so the balancer closes idle connections first.
  server.keepAliveTimeout = 65_000;
  // Since Node 18 the headers timer runs from a request's first byte, not from the idle socket:
  // it need not exceed keepAliveTimeout, and a slow-headers client holds a socket for this long.
  server.headersTimeout = headersTimeout;
  server.requestTimeout = opts.requestTimeoutMs ?? 30_000;
  server.maxConnections = opts.maxConnections ?? 10_000;

  let drained: Promise<DrainResult> | undefined;
  Object.defineProperty(server, "draining", { get: () => draining });
  server.drain = ({ timeoutMs, idleGraceMs = Math.min(3_000, timeoutMs / 3), onStopAccepting }) => {
    drained ??= new Promise<DrainResult>((resolve) => {
      draining = true;
      for (const res of fallbackInFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      fallbackInFlight.clear();
      const started = performance.now();
      let sweep: NodeJS.Timeout | undefined;
      const finish = (clean: boolean) => {
        clearTimeout(idle);
        clearTimeout(deadline);
        clearInterval(sweep);
        resolve({ clean, ms: Math.round(performance.now() - started) });
      };
      // Called from a signal handler (the poll phase), the first setImmediate runs before the next
      // poll and the second after it: that poll accepts what is waiting in the backlog.
      setImmediate(() =>
        setImmediate(() => {
          // net.Server's close, not http.Server's: that one also destroys idle keep-alive
          // connections at once, and a request a client has just sent on one (bytes not yet read)
          // would be reset. The callback runs once every connection has ended too.
          NetServer.prototype.close.call(server, () => finish(true));
          onStopAccepting?.();
        }),
      );
      const idle = setTimeout(() => {
        server.closeIdleConnections();
        // A response whose headers went out before the drain (a page streamed from Next.js) still
        // ends with keep-alive: its connection is idle afterwards and goes at the next sweep.
        sweep = setInterval(() => server.closeIdleConnections(), 100);
      }, idleGraceMs);
      const deadline = setTimeout(() => {
        server.closeAllConnections();
        finish(false);
      }, timeoutMs);
    });
    return drained;
  };
  return server;
}
