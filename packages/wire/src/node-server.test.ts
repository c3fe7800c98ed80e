import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { rawJson } from "./errors";
import { createWireServer, isWirePath } from "./node-server";

const servers: ReturnType<typeof createWireServer>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function serve(opts: Parameters<typeof createWireServer>[1]) {
  const server = createWireServer(async () => rawJson(200, '{"status":"ok"}'), opts);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** A socket's fate: the first answer bytes, or "closed" when the server ends it without one. */
function fate(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = "";
    socket.on("data", (c) => {
      got += c.toString("latin1");
    });
    socket.on("close", () => resolve(got || "closed"));
    socket.on("error", () => undefined);
  });
}

describe("the lean server's bounds", () => {
  it("closes connections beyond maxConnections on arrival", async () => {
    const port = await serve({ maxConnections: 2 });
    const held = [connect(port, "127.0.0.1"), connect(port, "127.0.0.1")];
    await Promise.all(held.map((s) => once(s, "connect")));
    // Give the server time to count both before the third arrives.
    await new Promise((r) => setTimeout(r, 50));
    const third = connect(port, "127.0.0.1");
    third.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await fate(third)).toBe("closed");
    for (const s of held) s.destroy();
  });

  it("cuts off a client that trickles its headers past headersTimeout", async () => {
    const port = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 1000 });
    const slow = connect(port, "127.0.0.1");
    await once(slow, "connect");
    slow.write("POST /api/v1/budgets/check HTTP/1.1\r\nHost: x\r\n");
    const started = Date.now();
    const answer = await fate(slow);
    expect(answer === "closed" || answer.startsWith("HTTP/1.1 408")).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("the dashboard's single port", () => {
  it("sends the SDK API's paths to the wire dispatch and everything else to the app", () => {
    for (const p of [
      "/api/v1/budgets/check",
      "/api/v1",
      "/api/v1/nope?x=1",
      "/health",
      "/health/ready",
      "http://h/api/v1/x",
    ])
      expect(isWirePath(p)).toBe(true);
    for (const p of [
      "/",
      "/sign-in",
      "/api/v10/x",
      "/api/v1x",
      "/api/trpc/x",
      "/healthz",
      "/health/live",
      "/api/auth/x",
    ])
      expect(isWirePath(p)).toBe(false);
  });

  it("answers the app's paths through the fallback, on the same bounded server", async () => {
    const server = createWireServer(async () => rawJson(200, '{"status":"ok"}'), {
      fallback: (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<p>app</p>");
      },
    });
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${base}/sign-in`)).text()).toBe("<p>app</p>");
    expect(await (await fetch(`${base}/health`)).text()).toBe('{"status":"ok"}');
    expect(server.keepAliveTimeout).toBe(65_000);
  });
});
