#!/usr/bin/env node
// Offline stand-in for Prisma's native `schema-engine` binary.
// The Prisma 7 CLI spawns PRISMA_SCHEMA_ENGINE_BINARY with
//   --datamodels <file>... --datasource '{"url":...,"shadowDatabaseUrl":...}'
// and talks line-delimited JSON-RPC over stdin/stdout. We serve those calls
// with the official Wasm build of the same engine (@prisma/schema-engine-wasm,
// same engine commit as the CLI) driven through @prisma/adapter-pg.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const pg = require("pg");
const { PrismaPg } = require("@prisma/adapter-pg");
const { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } = require("@prisma/driver-adapter-utils");

// The engine's Postgres schema describer selects catalog columns of the internal type
// "char" (OID 18, e.g. pg_class.relkind, pg_constraint.contype); @prisma/adapter-pg 7.10 has no
// mapping for it and fails with "Column type 'char' could not be deserialized". Such columns are
// parsed as text (OID 25) and marked, and charColumns() below reports them to the engine as
// characters, as the native engine's driver does: the describer reads a CHECK constraint's type
// as a char and panicked on the text it got ("Getting constraint_type from ResultRow").
const origAddFields = pg.Result.prototype.addFields;
pg.Result.prototype.addFields = function (fieldDescriptions) {
  for (const f of fieldDescriptions)
    if (f.dataTypeID === 18) {
      f.dataTypeID = 25;
      f.bwChar = true;
    }
  return origAddFields.call(this, fieldDescriptions);
};
/** Row arrays of results that had "char" columns → those columns' indexes. */
const charColumnsOf = new WeakMap();

const args = process.argv.slice(2);
const datamodels = [];
let datasource = {};
let cliCommand = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--version" || a === "-V") cliCommand = "version";
  else if (a === "--datamodels") datamodels.push(args[++i]);
  else if (a === "--datasource") datasource = JSON.parse(args[++i]);
  else if (a === "--enabled-preview-features" || a === "--extension-types") i++;
  else if (a === "cli") cliCommand = args[++i];
}

// Turn a postgres URL into discrete pg options. NB: passing {connectionString, database}
// to pg makes the connection string win, so PrismaPg.connectToShadowDb() would silently
// reuse the main database. Discrete fields avoid that.
function pgConfig(url) {
  const u = new URL(url);
  const cfg = {
    host: decodeURIComponent(u.hostname),
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)) || "postgres",
  };
  const schema = u.searchParams.get("schema");
  return { cfg, schema };
}

function logLine(level, message, extra = {}) {
  process.stderr.write(
    JSON.stringify({
      timestamp: new Date().toISOString(),
      level,
      fields: { message, ...extra },
      target: "schema_engine::logger",
    }) + "\n",
  );
}

async function loadWasmEngine() {
  // The engine reports a Rust panic's message through this registry before it traps; without it
  // the report itself threw ("reading 'set_message'") and the panic's text was lost.
  globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
    set_message(message) {
      logLine("ERROR", `schema engine panicked: ${message}`);
    },
  };
  const pkgDir = path.dirname(require.resolve("@prisma/schema-engine-wasm"));
  const bg = await import(pathToFileURL(path.join(pkgDir, "schema_engine_bg.js")).href);
  const mod = new WebAssembly.Module(readFileSync(path.join(pkgDir, "schema_engine_bg.wasm")));
  const instance = new WebAssembly.Instance(mod, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return bg;
}

async function cliMode(cmd) {
  if (cmd === "version") {
    const bg = await loadWasmEngine();
    process.stdout.write(`schema-engine-cli ${bg.version()} (wasm shim)\n`);
    return 0;
  }
  const { cfg } = pgConfig(datasource.url);
  // the CLI parses stderr as JSON lines and skips the first line
  logLine("INFO", `Starting schema engine CLI command ${cmd} (wasm shim)`);
  if (cmd === "can-connect-to-database") {
    const c = new pg.Client(cfg);
    try {
      await c.connect();
      await c.end();
      return 0;
    } catch (e) {
      const code = e.code === "3D000" ? "P1003" : "P1001";
      logLine("ERROR", e.message, { error_code: code });
      return 1;
    }
  }
  if (cmd === "create-database") {
    const c = new pg.Client({ ...cfg, database: "postgres" });
    await c.connect();
    await c.query(`CREATE DATABASE "${cfg.database.replace(/"/g, '""')}"`);
    await c.end();
    return 0;
  }
  if (cmd === "drop-database") {
    const c = new pg.Client({ ...cfg, database: "postgres" });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${cfg.database.replace(/"/g, '""')}"`);
    await c.end();
    return 0;
  }
  logLine("ERROR", `unsupported cli command ${cmd}`);
  return 1;
}

function charColumns(adapter) {
  let proto = Object.getPrototypeOf(adapter);
  while (proto && !Object.hasOwn(proto, "queryRaw")) proto = Object.getPrototypeOf(proto);
  if (proto && !proto.bwCharColumns) {
    const performIO = proto.performIO;
    proto.performIO = async function (query) {
      const result = await performIO.call(this, query);
      const chars = (result?.fields ?? []).flatMap((f, i) => (f.bwChar ? [i] : []));
      if (chars.length && result.rows) charColumnsOf.set(result.rows, chars);
      return result;
    };
    const queryRaw = proto.queryRaw;
    proto.queryRaw = async function (query) {
      const result = await queryRaw.call(this, query);
      for (const i of charColumnsOf.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    };
    proto.bwCharColumns = true;
  }
  return adapter;
}

function wholeScripts(adapter) {
  const proto = Object.getPrototypeOf(adapter);
  if (!proto.bwWholeScripts) {
    proto.executeScript = async function (script) {
      try {
        await this.client.query(script);
      } catch (error) {
        this.onError(error);
      }
    };
    proto.bwWholeScripts = true;
  }
  return adapter;
}

async function rpcMode() {
  const bg = await loadWasmEngine();
  const { cfg, schema } = pgConfig(datasource.url);
  const options = schema ? { schema } : undefined;
  const factory = new PrismaPg(cfg, options);
  // adapter-pg 7.10's executeScript splits a migration at every ";" — inside a comment, a string
  // or a DO $$ … $$ block too — and runs the pieces one by one. The native engine sends the whole
  // script at once; do the same (one simple-protocol query: the script runs as one implicit
  // transaction, so a failing migration leaves nothing half applied).
  const connect = factory.connect.bind(factory);
  factory.connect = async () => charColumns(wholeScripts(await connect()));
  if (datasource.shadowDatabaseUrl) {
    const shadow = pgConfig(datasource.shadowDatabaseUrl);
    factory.connectToShadowDb = () => new PrismaPg(shadow.cfg, options).connect();
  } else {
    // PrismaPg.connectToShadowDb() in 7.10.0 drops the temp database *before* closing its
    // pool, so Postgres refuses ("is being accessed by other users"). Do it in the right order.
    factory.connectToShadowDb = async () => {
      const admin = new pg.Client(cfg);
      await admin.connect();
      const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID()}`;
      await admin.query(`CREATE DATABASE "${name}"`);
      const inner = await new PrismaPg({ ...cfg, database: name }, options).connect();
      const innerDispose = inner.dispose.bind(inner);
      inner.dispose = async () => {
        await innerDispose();
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
        await admin.end();
      };
      return inner;
    };
  }
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const files = datamodels.map((p) => [p, readFileSync(p, "utf8")]);
  const newEngine = () =>
    bg.SchemaEngine.new(
      { datamodels: files.length ? files : undefined },
      (msg) => process.stderr.write(String(msg).trimEnd() + "\n"),
      adapter,
    );
  const engine = await newEngine();
  // The Wasm engine's evaluateDataLoss/createMigration compute "schema from migrations" through
  // a per-engine cache that only devDiagnostic/diagnoseMigrationHistory fill using the adapter's
  // shadow-DB factory. On a cache miss (e.g. `migrate dev` just applied a pending migration) they
  // fail with "PostgreSQL shadow DB must be provided through an external factory". Prime the
  // cache via devDiagnostic with the same migration list, then retry once.
  const call = async (method, params) => {
    try {
      return await engine[method](params);
    } catch (e) {
      if (
        !/shadow DB must be provided through an external factory/.test(e?.message ?? "") ||
        !params?.migrationsList
      )
        throw e;
      if (process.env.SCHEMA_ENGINE_SHIM_TRACE) {
        const { appendFileSync } = await import("node:fs");
        appendFileSync(
          process.env.SCHEMA_ENGINE_SHIM_TRACE,
          `  priming migration-schema cache via devDiagnostic, retrying ${method}\n`,
        );
      }
      await engine.devDiagnostic({
        migrationsList: params.migrationsList,
        filters: params.filters ?? { externalTables: [], externalEnums: [] },
      });
      return await engine[method](params);
    }
  };

  const send = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
  let pending = 0;
  let closed = false;
  const maybeExit = () => {
    if (closed && pending === 0) {
      try {
        engine.free();
      } catch {}
      process.exit(0);
    }
  };
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", async (line) => {
    if (!line.trim()) return;
    const req = JSON.parse(line);
    if (req.method === undefined) return; // response to a notification we sent
    if (process.env.SCHEMA_ENGINE_SHIM_TRACE) {
      const { appendFileSync } = await import("node:fs");
      appendFileSync(
        process.env.SCHEMA_ENGINE_SHIM_TRACE,
        `${new Date().toISOString()} pid=${process.pid} ${req.method}\n`,
      );
    }
    pending++;
    try {
      const method = req.method === "getDatabaseVersion" ? "version" : req.method;
      if (typeof engine[method] !== "function")
        throw Object.assign(new Error(`Unknown method ${req.method}`), { rpcCode: -32601 });
      let result = await call(method, req.params ?? {});
      if (method === "diff" && result && typeof result.stdout === "string") {
        // the native engine prints the diff itself (via a `print` request); emulate that
        process.stdout.write(
          JSON.stringify({
            jsonrpc: "2.0",
            id: 1e9 + req.id,
            method: "print",
            params: { content: result.stdout },
          }) + "\n",
        );
        result = { exitCode: result.exitCode };
      }
      send({ jsonrpc: "2.0", id: req.id, result: result === undefined ? null : result });
    } catch (e) {
      const isPanic = e instanceof WebAssembly.RuntimeError;
      const data = { is_panic: isPanic, message: e?.message ?? String(e), backtrace: e?.stack };
      if (e && typeof e === "object" && "code" in e && typeof e.code === "string") {
        data.error_code = e.code;
        data.meta = e.meta;
      }
      send({
        jsonrpc: "2.0",
        id: req.id,
        error: {
          code: e?.rpcCode ?? 4466,
          message: "An error happened. Check the data field for details.",
          data,
        },
      });
    } finally {
      pending--;
      maybeExit();
    }
  });
  rl.on("close", () => {
    closed = true;
    maybeExit();
  });
}

if (cliCommand) {
  cliMode(cliCommand).then(
    (code) => process.exit(code),
    (e) => {
      logLine("ERROR", e?.message ?? String(e));
      process.exit(1);
    },
  );
} else {
  rpcMode().catch((e) => {
    logLine("ERROR", e?.stack ?? String(e));
    process.exit(1);
  });
}
