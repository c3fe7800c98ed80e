/** A keep-alive JSON POST for the scale run's own probes (the load phases use the wire bench's generator). */
import { Agent, request } from "node:http";

const agents = new Map<string, Agent>();

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

export function post(base: string, path: string, apiKey: string, payload: unknown): Promise<Answer> {
  const u = new URL(path, base);
  let agent = agents.get(u.host);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 256 });
    agents.set(u.host, agent);
  }
  const body = JSON.stringify(payload);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - t0 }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, body: "", ms: performance.now() - t0 }));
    req.end(body);
  });
}

export function closeAgents(): void {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

export const checkBody = (estimatedInputTokens = 1000) => ({
  model: "gpt-4o",
  provider: "openai",
  fallback_providers: [],
  fallback_models: [],
  estimated_input_tokens: estimatedInputTokens,
});
