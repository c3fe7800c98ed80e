/** Reachability checks for Postgres and Redis that answer with a reason a person can act on. */
import net from "node:net";
import pg from "pg";

export type ProbeResult = { ok: true } | { ok: false; reason: string; code?: string };

/** host:port/db of a Postgres URL, without credentials (safe to print). */
export function describePgUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
}

/** host:port/db of a Redis URL, without credentials (safe to print). */
export function describeRedisUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "6379"}${u.pathname && u.pathname !== "/" ? u.pathname : ""}`;
}

/**
 * Connects to the database of `url`, creating the database first when the server answers but the
 * database does not exist yet (a fresh local Postgres has only `postgres`).
 */
export async function ensurePostgresDatabase(url: string, timeoutMs = 3_000): Promise<ProbeResult> {
  const first = await tryPg(url, timeoutMs);
  if (first.ok || first.code !== "3D000") return first;
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // Two launchers racing to create it is fine.
    if (e.code !== "42P04")
      return { ok: false, reason: `cannot create database "${name}": ${e.message}`, code: e.code };
  } finally {
    await client.end().catch(() => undefined);
  }
  return tryPg(url, timeoutMs);
}

async function tryPg(url: string, timeoutMs: number): Promise<ProbeResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A failed connect can still emit 'error' later; swallow it, the result carries the reason.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { ok: true };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { ok: false, reason: e.code ?? e.message ?? String(err), code: e.code };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * PINGs a Redis server over a raw socket (AUTH and SELECT first when the URL carries them), so a probe
 * needs no client library and never retries forever.
 */
export function pingRedis(url: string, timeoutMs = 2_000): Promise<ProbeResult> {
  const u = new URL(url);
  if (u.protocol === "rediss:") {
    // TLS endpoints are managed services; trust the operator's URL and let the apps report errors.
    return Promise.resolve({ ok: true });
  }
  const commands: string[][] = [];
  const password = decodeURIComponent(u.password);
  const username = decodeURIComponent(u.username);
  if (password) commands.push(username ? ["AUTH", username, password] : ["AUTH", password]);
  const db = u.pathname.replace(/^\//, "");
  if (db) commands.push(["SELECT", db]);
  commands.push(["PING"]);
  const payload = commands
    .map((c) => `*${c.length}\r\n${c.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`)
    .join("");

  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    let buf = "";
    let done = false;
    const finish = (r: ProbeResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: "ETIMEDOUT", code: "ETIMEDOUT" }), timeoutMs);
    socket.on("connect", () => socket.write(payload));
    socket.on("error", (err: NodeJS.ErrnoException) =>
      finish({ ok: false, reason: err.code ?? err.message, code: err.code }),
    );
    socket.on("data", (chunk) => {
      buf += chunk.toString("utf8");
      const lines = buf.split("\r\n").filter(Boolean);
      const error = lines.find((l) => l.startsWith("-"));
      if (error) return finish({ ok: false, reason: error.slice(1), code: error.slice(1).split(" ")[0] });
      if (lines.length >= commands.length && lines.at(-1) === "+PONG") finish({ ok: true });
    });
  });
}

/** True when nothing listens on host:port (we can bind it). */
export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A TCP port the OS considers free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen({ port: 0, host: "127.0.0.1" }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it resolves true or the deadline passes. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 200,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return false;
}
