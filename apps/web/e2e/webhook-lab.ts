import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { type APIRequestContext, expect } from "@playwright/test";

/** A running apps/worker/test/e2e-webhook-lab.ts: the real worker plus a verifying receiver. */
export interface WebhookLab {
  receiverUrl: string;
  control(request: APIRequestContext, what: string, body?: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export interface ReceivedMessage {
  webhookId: string;
  type: string | null;
  verified: boolean;
  /** Which of the secrets given (by index) verified it; null when none did. */
  secretIndex: number | null;
  answered: number;
}

/** Starts the lab as a child process and waits for its ready line. */
export async function startWebhookLab(): Promise<WebhookLab> {
  const labPath = path.resolve(__dirname, "../../worker/test/e2e-webhook-lab.ts");
  const lab: ChildProcess = spawn(process.execPath, ["--import", "tsx", labPath], {
    cwd: path.dirname(labPath),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<never>((_, reject) =>
    lab.once("exit", (code) => reject(new Error(`webhook lab exited with ${code}`))),
  );
  const ready = (async () => {
    for await (const line of createInterface({ input: lab.stdout! })) {
      if (line.startsWith("{")) return JSON.parse(line) as { receiverUrl: string; controlUrl: string };
    }
    throw new Error("webhook lab closed its output before it was ready");
  })();
  const info = await Promise.race([ready, exited]);
  exited.catch(() => undefined);
  return {
    receiverUrl: info.receiverUrl,
    async control(request, what, body) {
      const res =
        body === undefined
          ? await request.get(`${info.controlUrl}${what}`)
          : await request.post(`${info.controlUrl}${what}`, { data: body });
      expect(res.ok(), `${what}: ${await res.text()}`).toBe(true);
      return res.json();
    },
    async stop() {
      if (lab.exitCode !== null) return;
      const done = new Promise((r) => lab.once("exit", r));
      lab.kill("SIGTERM");
      await done;
    },
  };
}
