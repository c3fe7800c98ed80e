import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK,
  checkBody,
  createTenant,
  get,
  type Harness,
  startHarness,
  type Tenant,
} from "./testing/harness";

let h: Harness;
let t: Tenant;
beforeAll(async () => {
  h = await startHarness();
  t = await createTenant(h);
});
afterAll(async () => h.close());

/** One request on `agent`; resolves with the status, the body and whether it reused a kept-alive socket. */
function send(agent: Agent, body: string): Promise<{ status: number; text: string; reused: boolean }> {
  const { port } = new URL(h.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: CHECK,
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, reused: req.reusedSocket }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the SDK API's transport", () => {
  it("keeps an idle connection open past Node's default 5 s keep-alive, and answers on it", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = JSON.stringify(checkBody());
      const first = await send(agent, body);
      expect(first.status).toBe(200);
      // Longer than Node's default keepAliveTimeout (5 s), after which the socket would be closed
      // and a client reusing it just then would get "other side closed" / a 502 behind a balancer.
      await new Promise((r) => setTimeout(r, 5_600));
      const second = await send(agent, body);
      expect(second.status).toBe(200);
      expect(second.reused).toBe(true);
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it("answers unknown paths under /api/v1 with the API's JSON 404, not a page", async () => {
    for (const path of ["/api/v1/nope", "/api/v1", "/api/v1/budgets/check/extra"]) {
      const res = await get(h, path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.text).toBe('{"detail":"Not Found"}');
    }
    const health = await get(h, "/health?probe=1");
    expect(health.status).toBe(200);
    expect(health.text).toBe('{"status":"ok"}');
  });
});
