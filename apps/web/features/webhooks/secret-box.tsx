"use client";

import { CopyButton } from "@/components/ui/copy-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

const nodeSnippet = `// npm install svix
import { Webhook } from "svix";

const wh = new Webhook(process.env.BREAKWATER_WEBHOOK_SECRET); // whsec_…

// Express: read the raw body, the signature covers its exact bytes.
app.post("/breakwater", express.raw({ type: "application/json" }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body, req.headers); // webhook-id, webhook-timestamp, webhook-signature
  } catch {
    return res.status(400).send("bad signature");
  }
  // event.type is one this endpoint subscribes to: provider_incident_opened, _updated, _resolved,
  // circuit_breaker_opened, _closed, budget_threshold_crossed (schemas: Webhooks → Event types).
  // The webhook-id header stays the same on retries and replays: deduplicate on it.
  res.status(204).end();
});`;

const pythonSnippet = `# pip install standardwebhooks
import os
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["BREAKWATER_WEBHOOK_SECRET"])  # whsec_…

# FastAPI: verify the raw body, the signature covers its exact bytes.
@app.post("/breakwater")
async def breakwater(request: Request):
    try:
        event = wh.verify(await request.body(), dict(request.headers))
    except Exception:
        return Response(status_code=400)
    # event["type"]: one this endpoint subscribes to (provider_incident_opened, _updated,
    # _resolved, circuit_breaker_opened, _closed, budget_threshold_crossed); the webhook-id
    # header stays the same on retries and replays: deduplicate on it.
    return Response(status_code=204)`;

/** A signing secret shown once (after create or rotate) with a copy button and how to verify with it. */
export function SecretBox({
  title,
  secret,
  note,
  onDone,
}: {
  title: string;
  secret: string;
  note: string;
  onDone: () => void;
}) {
  return (
    <section
      aria-label="Signing secret"
      data-testid="signing-secret"
      className="rounded-lg border border-emerald-200 bg-emerald-50/60 p-4"
    >
      <p className="text-[13px] font-medium text-emerald-900">{title}</p>
      <p className="mt-0.5 text-xs text-emerald-800/80">{note}</p>
      <div className="mt-3 flex items-center gap-2">
        <code className="min-w-0 flex-1 truncate rounded-md border border-emerald-200 bg-white px-3 py-1.5 font-mono text-[12px] text-zinc-800">
          {secret}
        </code>
        <CopyButton value={secret} label="Copy secret" />
        <button
          type="button"
          onClick={onDone}
          className="h-7 rounded-md px-2 text-xs font-medium text-emerald-900 hover:bg-emerald-100"
        >
          Done
        </button>
      </div>
      <VerifySnippets />
    </section>
  );
}

/** How a receiver verifies a message, in Node (svix) and Python (standardwebhooks). */
export function VerifySnippets() {
  return (
    <Tabs defaultValue="node" className="mt-4">
      <TabsList aria-label="Verification snippet language">
        <TabsTrigger value="node">Node (svix)</TabsTrigger>
        <TabsTrigger value="python">Python (standardwebhooks)</TabsTrigger>
      </TabsList>
      {[
        { value: "node", code: nodeSnippet },
        { value: "python", code: pythonSnippet },
      ].map((s) => (
        <TabsContent key={s.value} value={s.value} className="mt-2">
          <div className="relative">
            <pre className="max-h-72 overflow-auto rounded-md bg-zinc-900 p-3 font-mono text-[11.5px] leading-relaxed text-zinc-100">
              {s.code}
            </pre>
            <div className="absolute top-2 right-2">
              <CopyButton value={s.code} tone="dark" label="Copy code" />
            </div>
          </div>
        </TabsContent>
      ))}
    </Tabs>
  );
}
