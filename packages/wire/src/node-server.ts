import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Logger } from "pino";
import type { WireResult } from "./errors";
import type { WireRequest } from "./http";

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

/**
 * The lean SDK API server: node:http in front of the very same handler functions the Next.js
 * routes mount — no framework between the socket and the handler, which is what the budget
 * check's latency budget wants.
 */
export function createWireServer(dispatch: (req: WireRequest) => Promise<WireResult>, log?: Logger): Server {
  const server = createServer((msg, res) => {
    dispatch(new NodeWireRequest(msg)).then(
      (r) => write(res, r),
      (err: unknown) => {
        log?.error({ err }, "unhandled SDK request failure");
        if (!res.headersSent) write(res, { status: 500, body: '{"detail":"Internal Server Error"}' });
        else res.destroy();
      },
    );
  });
  // Longer than common load-balancer idle timeouts, so the balancer closes idle connections first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  return server;
}
