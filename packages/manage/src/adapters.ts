import type { IncomingMessage, ServerResponse } from "node:http";
import type { ManageRequest, ManageResponse } from "./http";

/** A ManageRequest over a Node IncomingMessage. */
export function fromNode(msg: IncomingMessage): ManageRequest {
  return {
    method: msg.method ?? "GET",
    url: msg.url ?? "/",
    headers: {
      get(name) {
        const v = msg.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
      },
    },
    readBody(limit) {
      const declared = Number(msg.headers["content-length"] ?? "0");
      if (declared > limit) return Promise.resolve(null);
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
            resolve(null); // the rest is drained and discarded
            return;
          }
          chunks.push(chunk);
        });
        msg.on("end", () => {
          if (!over) resolve(Buffer.concat(chunks, size));
        });
        msg.on("error", reject);
      });
    },
  };
}

/** Writes an answer to a Node ServerResponse. */
export function toNode(res: ServerResponse, r: ManageResponse): void {
  const headers: Record<string, string> = { ...r.headers };
  if (r.body !== null) headers["content-length"] = String(Buffer.byteLength(r.body));
  res.writeHead(r.status, headers);
  res.end(r.body ?? undefined);
}

/** A ManageRequest over a fetch Request (Next.js route handlers). */
export function fromFetch(req: Request): ManageRequest {
  const u = new URL(req.url);
  return {
    method: req.method,
    url: `${u.pathname}${u.search}`,
    headers: req.headers,
    async readBody(limit) {
      if (!req.body) return new Uint8Array(0);
      const reader = req.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          return null;
        }
        chunks.push(value);
      }
      return Buffer.concat(chunks, size);
    },
  };
}

/** An answer as a fetch Response. */
export function toFetch(r: ManageResponse): Response {
  return new Response(r.body, { status: r.status, headers: r.headers });
}
