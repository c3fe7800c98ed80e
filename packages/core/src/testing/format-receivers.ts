import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a format receiver accepted or refused, with what it found wrong. */
export interface FormatRequest {
  path: string;
  body: unknown;
  errors: string[];
}

export interface FormatReceiver {
  url: string;
  accepted: FormatRequest[];
  refused: FormatRequest[];
  close(): Promise<void>;
}

const isStr = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/**
 * What Slack checks of an incoming-webhook message (api.slack.com/messaging/webhooks, Block Kit
 * reference): a non-empty `text` (the notification fallback), at most 50 blocks of known types;
 * header = plain_text ≤ 150 chars; section text ≤ 3000 chars and ≤ 10 fields; actions hold
 * elements, buttons with a plain_text label and a URL; context holds ≤ 10 elements.
 */
export function slackErrors(body: unknown): string[] {
  const e: string[] = [];
  const m = body as { text?: unknown; blocks?: unknown };
  if (!m || typeof m !== "object") return ["body is not an object"];
  if (!isStr(m.text)) e.push("no_text");
  if (m.blocks === undefined) return e;
  if (!Array.isArray(m.blocks) || m.blocks.length > 50) return [...e, "invalid_blocks: not an array of ≤ 50"];
  for (const [i, b] of (m.blocks as Record<string, unknown>[]).entries()) {
    const text = b.text as { type?: string; text?: string } | undefined;
    switch (b.type) {
      case "header":
        if (text?.type !== "plain_text" || !isStr(text.text) || text.text.length > 150)
          e.push(`invalid_blocks[${i}]: header needs plain_text ≤ 150`);
        break;
      case "section": {
        const fields = b.fields as { type?: string; text?: string }[] | undefined;
        if (!text && !fields) e.push(`invalid_blocks[${i}]: section needs text or fields`);
        if (
          text &&
          (!["mrkdwn", "plain_text"].includes(text.type ?? "") ||
            !isStr(text.text) ||
            text.text.length > 3000)
        )
          e.push(`invalid_blocks[${i}]: section text`);
        if (
          fields &&
          (fields.length > 10 || fields.some((f) => !isStr(f.text) || (f.text?.length ?? 0) > 2000))
        )
          e.push(`invalid_blocks[${i}]: section fields`);
        break;
      }
      case "actions": {
        const els = b.elements as { type?: string; text?: { type?: string; text?: string }; url?: string }[];
        if (!Array.isArray(els) || els.length === 0 || els.length > 25)
          e.push(`invalid_blocks[${i}]: actions`);
        for (const el of els ?? []) {
          if (el.type !== "button" || el.text?.type !== "plain_text" || !isStr(el.text.text))
            e.push(`invalid_blocks[${i}]: button`);
          if (el.url !== undefined && !/^https?:\/\//.test(el.url))
            e.push(`invalid_blocks[${i}]: button url`);
        }
        break;
      }
      case "context": {
        const els = b.elements as unknown[];
        if (!Array.isArray(els) || els.length === 0 || els.length > 10)
          e.push(`invalid_blocks[${i}]: context`);
        break;
      }
      case "divider":
        break;
      default:
        e.push(`invalid_blocks[${i}]: unknown type ${String(b.type)}`);
    }
  }
  return e;
}

/**
 * What PagerDuty's Events API v2 checks (developer.pagerduty.com, "Send an Alert Event"):
 * routing_key (32 chars), event_action trigger | acknowledge | resolve, dedup_key ≤ 255 (required
 * to acknowledge or resolve); a trigger needs payload.summary (≤ 1024), payload.source and
 * payload.severity critical | error | warning | info, an ISO 8601 timestamp when given, and links
 * as {href, text?}.
 */
export function pagerDutyErrors(body: unknown): string[] {
  const e: string[] = [];
  const m = body as Record<string, unknown>;
  if (!m || typeof m !== "object") return ["body is not an object"];
  if (!isStr(m.routing_key) || m.routing_key.length !== 32) e.push("routing_key must be 32 characters");
  if (!["trigger", "acknowledge", "resolve"].includes(String(m.event_action))) e.push("event_action");
  if (m.dedup_key !== undefined && (!isStr(m.dedup_key) || m.dedup_key.length > 255)) e.push("dedup_key");
  if (m.event_action !== "trigger" && !isStr(m.dedup_key)) e.push("dedup_key is required to resolve");
  if (m.event_action === "trigger") {
    const p = m.payload as Record<string, unknown> | undefined;
    if (!p) e.push("payload is required to trigger");
    else {
      if (!isStr(p.summary) || p.summary.length > 1024) e.push("payload.summary");
      if (!isStr(p.source)) e.push("payload.source");
      if (!["critical", "error", "warning", "info"].includes(String(p.severity))) e.push("payload.severity");
      if (p.timestamp !== undefined && Number.isNaN(Date.parse(String(p.timestamp))))
        e.push("payload.timestamp");
    }
  }
  if (m.links !== undefined) {
    if (!Array.isArray(m.links) || m.links.some((l: { href?: unknown }) => !isStr(l?.href))) e.push("links");
  }
  return e;
}

/**
 * A loopback receiver that answers like the real service: Slack 200 "ok" or 400 with the error,
 * PagerDuty 202 {"status":"success"} or 400 {"status":"invalid event"}.
 */
export async function startFormatReceiver(kind: "slack" | "pagerduty"): Promise<FormatReceiver> {
  const accepted: FormatRequest[] = [];
  const refused: FormatRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: unknown;
      let errors: string[];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        errors = kind === "slack" ? slackErrors(body) : pagerDutyErrors(body);
      } catch {
        body = null;
        errors = ["invalid_payload"];
      }
      if (req.headers["content-type"] !== "application/json") errors.push("content-type");
      const r = { path: req.url ?? "", body, errors };
      (errors.length === 0 ? accepted : refused).push(r);
      res.setHeader("connection", "close");
      if (kind === "slack") {
        res.writeHead(errors.length === 0 ? 200 : 400, { "content-type": "text/plain" });
        res.end(errors.length === 0 ? "ok" : errors[0]);
      } else {
        res.writeHead(errors.length === 0 ? 202 : 400, { "content-type": "application/json" });
        const dedup = (body as { dedup_key?: string } | null)?.dedup_key;
        res.end(
          JSON.stringify(
            errors.length === 0
              ? { status: "success", message: "Event processed", dedup_key: dedup }
              : { status: "invalid event", message: "Event object is invalid", errors },
          ),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const path = kind === "slack" ? "/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX" : "/v2/enqueue";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    accepted,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
