import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JS module (server.mjs runs without a TypeScript loader)
import { createNextProxy } from "./next-proxy.mjs";

// A stand-in for Next.js on a Unix socket, as next-process.mjs serves it, behind the proxy on a
// loopback TCP port, as server.mjs serves it.
const dir = mkdtempSync(path.join(tmpdir(), "next-proxy-test-"));
const socketPath = path.join(dir, "next.sock");
let upstreamSeen: { url?: string; headers: IncomingMessage["headers"]; body: string }[] = [];
let sseClosed: () => void = () => {};
let slowClosed: () => void = () => {};
const upstream: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    upstreamSeen.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
    if (req.url === "/cookies") {
      res.writeHead(200, [
        "Set-Cookie",
        "a=1; Path=/",
        "Set-Cookie",
        "b=2; Path=/",
        "Content-Type",
        "text/plain",
        "Keep-Alive",
        "timeout=5",
      ]);
      res.end("two cookies");
    } else if (req.url === "/events") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("data: first\n\n");
      res.once("close", () => sseClosed());
    } else if (req.url === "/slow") {
      res.once("close", () => slowClosed()); // never answers: a page still rendering
    } else if (req.url === "/cut") {
      res.writeHead(200, { "content-length": "100" });
      res.write("only part");
      setTimeout(() => res.destroy(), 20);
    } else {
      res.writeHead(201, { "content-type": "application/json", "x-upstream": "next" });
      res.end(JSON.stringify({ method: req.method }));
    }
  });
});
const proxyErrors: Error[] = [];
const proxy = createNextProxy(socketPath, { onError: (e: Error) => proxyErrors.push(e) });
const front: Server = createServer(proxy);
front.keepAliveTimeout = 7_000;
let base = "";

beforeAll(async () => {
  await new Promise<void>((r) => upstream.listen(socketPath, r));
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(() => {
  proxy.close();
  front.closeAllConnections();
  front.close();
  upstream.closeAllConnections();
  upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the dashboard port's hand-off to Next.js", () => {
  it("passes method, path, query and body up and the status, headers and body down", async () => {
    upstreamSeen = [];
    const res = await fetch(`${base}/api/trpc/projects.create?batch=1`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-custom": "kept" },
      body: '{"name":"demo"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-upstream")).toBe("next");
    expect(await res.json()).toEqual({ method: "POST" });
    expect(upstreamSeen).toHaveLength(1);
    const seen = upstreamSeen[0]!;
    expect(seen.url).toBe("/api/trpc/projects.create?batch=1");
    expect(seen.body).toBe('{"name":"demo"}');
    expect(seen.headers["x-custom"]).toBe("kept");
    expect(seen.headers["content-type"]).toBe("application/json");
  });

  it("writes the TCP peer into x-breakwater-peer, over any value the client sent", async () => {
    upstreamSeen = [];
    await (
      await fetch(`${base}/sign-in`, {
        headers: { "x-breakwater-peer": "203.0.113.9", "x-forwarded-for": "198.51.100.7" },
      })
    ).text();
    const seen = upstreamSeen[0]!;
    expect(seen.headers["x-breakwater-peer"]).toBe("127.0.0.1");
    // X-Forwarded-For is the client's claim; the limiter weighs it against TRUST_PROXY upstream.
    expect(seen.headers["x-forwarded-for"]).toBe("198.51.100.7");
  });

  it("keeps repeated Set-Cookie headers and drops per-connection ones", async () => {
    const res = await fetch(`${base}/cookies`);
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    // Keep-Alive is this hop's own (the front's 7 s), not the upstream's 5 s.
    expect(res.headers.get("keep-alive")).toBe("timeout=7");
    expect(await res.text()).toBe("two cookies");
  });

  it("streams server-sent events as they are written, and a client that leaves closes the upstream request", async () => {
    const closed = new Promise<void>((r) => {
      sseClosed = r;
    });
    const ctrl = new AbortController();
    const res = await fetch(`${base}/events`, { signal: ctrl.signal });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    // The upstream has not ended its answer: the first event arrives on its own.
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe("data: first\n\n");
    ctrl.abort();
    await closed; // the stand-in saw its response closed: the subscription would be torn down
    await new Promise((r) => setTimeout(r, 20));
    expect(proxyErrors).toEqual([]); // a client leaving is not Next.js failing to answer
  });

  it("a client that leaves before Next.js answers closes the upstream request, and is not logged as Next.js failing", async () => {
    const closed = new Promise<void>((r) => {
      slowClosed = r;
    });
    const ctrl = new AbortController();
    const pending = fetch(`${base}/slow`, { signal: ctrl.signal }).catch((e: Error) => e.name);
    await new Promise((r) => setTimeout(r, 50));
    ctrl.abort();
    expect(await pending).toBe("AbortError");
    await closed;
    await new Promise((r) => setTimeout(r, 20));
    expect(proxyErrors).toEqual([]);
  });

  it("cuts the client's connection when the upstream dies mid-answer, so a short body never looks whole", async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = request(`${base}/cut`, (res) => {
        res.on("data", () => {});
        res.once("end", () => resolve(res.complete ? "complete" : "incomplete"));
        res.once("error", () => resolve("error"));
        res.once("aborted", () => resolve("aborted"));
      });
      req.once("error", () => resolve("error"));
      req.end();
    });
    expect(outcome).not.toBe("complete");
  });

  it("answers 502 when Next.js cannot be reached", async () => {
    const errors: Error[] = [];
    const lost = createNextProxy(path.join(dir, "absent.sock"), { onError: (e: Error) => errors.push(e) });
    const lone = createServer(lost);
    await new Promise<void>((r) => lone.listen(0, "127.0.0.1", r));
    try {
      const res = await fetch(`http://127.0.0.1:${(lone.address() as AddressInfo).port}/projects`);
      expect(res.status).toBe(502);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await res.text()).toContain("not answering");
      expect(errors).toHaveLength(1);
    } finally {
      lost.close();
      lone.close();
    }
  });
});
