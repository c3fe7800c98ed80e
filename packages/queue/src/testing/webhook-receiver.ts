import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as a webhook receiver saw it. */
export interface ReceivedWebhook {
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The parsed payload, or the verification error. */
  verified: boolean;
  error?: string;
  receivedAt: number;
  /** The status this receiver answered (null = it hung up or never answered). */
  answered: number | null;
}

/** What the receiver does with a request: answer a status (optionally after a delay) or hang. */
export type ReceiverBehaviour = (req: {
  webhookId: string;
  body: string;
  count: number;
}) => { status: number; delayMs?: number } | "hang";

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Requests by webhook-id (a webhook-id seen twice is a redelivery of the same message). */
  byId(): Map<string, ReceivedWebhook[]>;
  setBehaviour(b: ReceiverBehaviour): void;
  /** Resolves when `predicate` holds over the received list (polls every 20 ms). */
  waitFor(predicate: (r: ReceivedWebhook[]) => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP webhook receiver for tests and benchmarks. Every request is checked with `verify`
 * (svix's Webhook.verify in practice) at receipt time, as a customer's receiver would.
 */
export async function startWebhookReceiver(opts: {
  port: number;
  verify: (body: string, headers: Record<string, string>) => unknown;
  behaviour?: ReceiverBehaviour;
  onReceive?: (r: ReceivedWebhook) => void;
  /**
   * Keep every request in `received` (default). A benchmark that counts with onReceive passes
   * false: 100,000 kept bodies would make this process's garbage collector part of the figure.
   */
  retain?: boolean;
}): Promise<WebhookReceiver> {
  let behaviour: ReceiverBehaviour = opts.behaviour ?? (() => ({ status: 200 }));
  const received: ReceivedWebhook[] = [];
  const counts = new Map<string, number>();
  const hanging = new Set<import("node:http").ServerResponse>();

  const header = (h: IncomingHttpHeaders, name: string) => {
    const v = h[name];
    return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const webhookId = header(req.headers, "webhook-id");
      const headers = {
        "webhook-id": webhookId,
        "webhook-timestamp": header(req.headers, "webhook-timestamp"),
        "webhook-signature": header(req.headers, "webhook-signature"),
      };
      const r: ReceivedWebhook = {
        webhookId,
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        verified: false,
        receivedAt: Date.now(),
        answered: null,
      };
      try {
        opts.verify(body, headers);
        r.verified = true;
      } catch (err) {
        r.error = (err as Error).message;
      }
      if (opts.retain !== false) received.push(r);
      opts.onReceive?.(r);
      const count = (counts.get(webhookId) ?? 0) + 1;
      counts.set(webhookId, count);
      const b = behaviour({ webhookId, body, count });
      if (b === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      const answer = () => {
        if (res.destroyed) return;
        r.answered = b.status;
        res.writeHead(b.status, { "content-type": "text/plain" });
        res.end(b.status < 300 ? "ok" : `status ${b.status}`);
      };
      if (b.delayMs) setTimeout(answer, b.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    byId() {
      const m = new Map<string, ReceivedWebhook[]>();
      for (const r of received) m.set(r.webhookId, [...(m.get(r.webhookId) ?? []), r]);
      return m;
    },
    setBehaviour(b) {
      behaviour = b;
    },
    async waitFor(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
