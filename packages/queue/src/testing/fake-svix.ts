import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One call the svix client made. */
export interface SvixCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  status: number;
}

/**
 * A local HTTP server speaking the part of the Svix API the svix client calls: application
 * get-or-create, event types, message create and resend, endpoints (CRUD, secret, rotate, send
 * example), App Portal access. svix-server itself
 * cannot run here; this asserts what Breakwater sends and lets tests script Svix's answers.
 */
export interface FakeSvix {
  url: string;
  calls: SvixCall[];
  /** Answers for the next message creates in one application (by uid), in order; then 202. */
  queueMessageStatuses(appUid: string, ...statuses: number[]): void;
  /** Holds every message create this long before handling it (a distant Svix), so overlap shows. */
  delayMessages(ms: number): void;
  /** The most message creates that were in flight at once. */
  maxMessagesInFlight(): number;
  close(): Promise<void>;
}

export async function startFakeSvix(port: number): Promise<FakeSvix> {
  const calls: SvixCall[] = [];
  const apps = new Map<string, { id: string; uid: string; name: string }>();
  const eventTypes = new Map<string, unknown>();
  const messages = new Map<string, string>(); // eventId → msg id
  const scripted = new Map<string, number[]>();
  type FakeEndpoint = {
    id: string;
    url: string;
    description: string;
    filterTypes: string[] | null;
    channels: string[] | null;
    disabled: boolean;
    version: number;
    metadata: Record<string, string>;
    createdAt: string;
    updatedAt: string;
    secret: string;
  };
  const endpoints = new Map<string, FakeEndpoint[]>();
  let endpointSeq = 0;
  let messageDelayMs = 0;
  let messagesInFlight = 0;
  let maxMessagesInFlight = 0;
  const now = () => new Date().toISOString();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const isMessage = req.method === "POST" && /\/msg$/.test(new URL(req.url ?? "/", "http://x").pathname);
      if (messageDelayMs === 0 || !isMessage) return handle();
      messagesInFlight++;
      maxMessagesInFlight = Math.max(maxMessagesInFlight, messagesInFlight);
      setTimeout(() => {
        messagesInFlight--;
        handle();
      }, messageDelayMs);
    });
    const handle = () => {
      const url = new URL(req.url ?? "/", "http://x");
      const raw = Buffer.concat(chunks).toString("utf8");
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      const call: SvixCall = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        status: 0,
      };
      calls.push(call);
      const send = (status: number, json: unknown) => {
        call.status = status;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== "Bearer testsk_fake")
        return send(401, { code: "authentication_failed", detail: "bad token" });

      const match = (re: RegExp) => re.exec(url.pathname);
      let m: RegExpExecArray | null = null;
      if (req.method === "POST" && url.pathname === "/api/v1/app") {
        const uid = String(body?.uid);
        let app = apps.get(uid);
        if (app && url.searchParams.get("get_if_exists") !== "true")
          return send(409, { code: "conflict", detail: "exists" });
        if (!app) {
          app = { id: `app_${apps.size + 1}`, uid, name: String(body?.name) };
          apps.set(uid, app);
        }
        return send(201, { ...app, metadata: {}, createdAt: now(), updatedAt: now() });
      }
      if (req.method === "POST" && url.pathname === "/api/v1/event-type") {
        const name = String(body?.name);
        if (eventTypes.has(name)) return send(409, { code: "event_type_exists", detail: "exists" });
        eventTypes.set(name, body);
        return send(201, { ...body, archived: false, deprecated: false, createdAt: now(), updatedAt: now() });
      }
      m = req.method === "PUT" ? match(/^\/api\/v1\/event-type\/([^/]+)$/) : null;
      if (m) {
        const name = decodeURIComponent(m[1]!);
        eventTypes.set(name, { ...body, name });
        return send(200, {
          ...body,
          name,
          archived: false,
          deprecated: false,
          createdAt: now(),
          updatedAt: now(),
        });
      }
      m = req.method === "POST" ? match(/^\/api\/v1\/app\/([^/]+)\/msg$/) : null;
      if (m) {
        const appUid = decodeURIComponent(m[1]!);
        if (![...apps.values()].some((a) => a.uid === appUid || a.id === appUid)) {
          return send(404, { code: "not_found", detail: "Application not found" });
        }
        const status = scripted.get(appUid)?.shift();
        if (status !== undefined && status >= 400)
          return send(status, { code: "scripted", detail: `status ${status}` });
        const eventId = String(body?.eventId ?? "");
        let id = messages.get(eventId);
        if (!id) {
          id = `msg_${messages.size + 1}`;
          messages.set(eventId, id);
        }
        return send(202, {
          id,
          eventId,
          eventType: body?.eventType,
          payload: {},
          channels: body?.channels,
          timestamp: now(),
        });
      }
      m = match(/^\/api\/v1\/app\/([^/]+)\/endpoint(?:\/([^/]+))?(\/secret(?:\/rotate)?|\/send-example)?$/);
      if (m) {
        const appUid = decodeURIComponent(m[1]!);
        if (![...apps.values()].some((a) => a.uid === appUid))
          return send(404, { code: "not_found", detail: "app" });
        const list = endpoints.get(appUid) ?? [];
        endpoints.set(appUid, list);
        const epId = m[2] ? decodeURIComponent(m[2]) : undefined;
        const ep = epId ? list.find((e) => e.id === epId) : undefined;
        if (epId && !ep) return send(404, { code: "not_found", detail: "endpoint" });
        const sub = m[3];
        if (!epId && req.method === "GET")
          return send(200, { data: list.map(({ secret: _, ...e }) => e), done: true, iterator: null });
        if (!epId && req.method === "POST") {
          const created = {
            id: `ep_${++endpointSeq}`,
            url: String(body?.url),
            description: String(body?.description ?? ""),
            filterTypes: (body?.filterTypes as string[] | null) ?? null,
            channels: (body?.channels as string[] | null) ?? null,
            disabled: Boolean(body?.disabled),
            version: 1,
            metadata: {},
            createdAt: now(),
            updatedAt: now(),
            secret: `whsec_${Buffer.from(`fake-secret-${endpointSeq}`).toString("base64")}`,
          };
          list.push(created);
          const { secret: _, ...out } = created;
          return send(201, out);
        }
        if (ep && !sub && req.method === "GET") return send(200, { ...ep, secret: undefined });
        if (ep && !sub && req.method === "PATCH") {
          for (const k of ["url", "description", "filterTypes", "channels", "disabled"] as const) {
            if (body && k in body) (ep as Record<string, unknown>)[k] = body[k];
          }
          ep.updatedAt = now();
          return send(200, { ...ep, secret: undefined });
        }
        if (ep && !sub && req.method === "DELETE") {
          endpoints.set(
            appUid,
            list.filter((e) => e !== ep),
          );
          call.status = 204;
          res.writeHead(204);
          return res.end();
        }
        if (ep && sub === "/secret" && req.method === "GET") return send(200, { key: ep.secret });
        if (ep && sub === "/secret/rotate" && req.method === "POST") {
          ep.secret = `whsec_${Buffer.from(`rotated-${++endpointSeq}`).toString("base64")}`;
          call.status = 204;
          res.writeHead(204);
          return res.end();
        }
        if (ep && sub === "/send-example" && req.method === "POST") {
          return send(202, {
            id: `msg_example_${++endpointSeq}`,
            eventType: body?.eventType,
            payload: {},
            timestamp: now(),
          });
        }
      }
      m =
        req.method === "POST"
          ? match(/^\/api\/v1\/app\/([^/]+)\/msg\/([^/]+)\/endpoint\/([^/]+)\/resend$/)
          : null;
      if (m) return send(202, {});
      m = req.method === "POST" ? match(/^\/api\/v1\/auth\/app-portal-access\/([^/]+)$/) : null;
      if (m) {
        return send(200, { url: `https://app.svix.com/login#key=fake-${m[1]}`, token: "appsk_fake" });
      }
      send(404, { code: "not_found", detail: `${req.method} ${url.pathname}` });
    };
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    queueMessageStatuses: (appUid, ...s) => scripted.set(appUid, [...(scripted.get(appUid) ?? []), ...s]),
    delayMessages: (ms) => {
      messageDelayMs = ms;
    },
    maxMessagesInFlight: () => maxMessagesInFlight,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
