import { parseConfig } from "@breakwater/config";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ensurePostgresDatabase, freePort, isPortFree, pingRedis } from "./probe";

const config = parseConfig(process.env);

describe("launcher probes", () => {
  it("PINGs the machine's Redis and reports a refused port as ECONNREFUSED", async () => {
    expect(await pingRedis(config.REDIS_URL)).toEqual({ ok: true });
    const port = await freePort();
    expect(await pingRedis(`redis://127.0.0.1:${port}/0`)).toMatchObject({ ok: false, code: "ECONNREFUSED" });
  });

  it("creates a missing database, then connects to it", async () => {
    const name = `bw_probe_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const url = new URL(config.DATABASE_URL);
    url.pathname = `/${name}`;
    try {
      expect(await ensurePostgresDatabase(url.toString())).toEqual({ ok: true });
      expect(await ensurePostgresDatabase(url.toString())).toEqual({ ok: true });
    } finally {
      const admin = new URL(config.DATABASE_URL);
      admin.pathname = "/postgres";
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    }
  });

  it("reports an unreachable Postgres without throwing", async () => {
    const port = await freePort();
    const r = await ensurePostgresDatabase(`postgresql://postgres@127.0.0.1:${port}/x`, 1_000);
    expect(r).toMatchObject({ ok: false, code: "ECONNREFUSED" });
  });

  it("tells a taken port from a free one", async () => {
    const port = await freePort();
    expect(await isPortFree(port)).toBe(true);
    const net = await import("node:net");
    const srv = net.createServer().listen(port, "127.0.0.1");
    await new Promise((r) => srv.once("listening", r));
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      srv.close();
    }
  });
});
