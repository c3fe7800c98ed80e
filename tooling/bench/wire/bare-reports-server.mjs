// The naive breaker-report server the heartbeat fast path is measured against: node:http that
// reads and JSON-parses the report, then runs one Postgres upsert per report over a `pg` pool of
// 10 — INSERT … ON CONFLICT (project_id, provider, sdk_instance_id) DO UPDATE … WHERE the stored
// report is not newer — into a copy of breaker_snapshots (its columns, keys and indexes) made by
// run.ts. No auth, no validation, no transitions, episodes or events: the floor of "one row per
// report in Postgres". Plain JavaScript so nothing but node runs.
import { createServer } from "node:http";
import pg from "pg";

const port = Number(process.argv[2]);
const databaseUrl = process.argv[3];
const table = process.argv[4];
const projectId = process.argv[5];
if (!port || !databaseUrl || !table || !projectId) {
  process.stderr.write("usage: bare-reports-server.mjs <port> <database-url> <table> <project-id>\n");
  process.exit(2);
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const UPSERT = {
  name: "bare-breaker-upsert",
  text: `INSERT INTO ${table}
      (project_id, provider, sdk_instance_id, state, failure_count, success_count, reported_at, received_at, first_seen_at, state_since)
    VALUES ($1, $2, $3, $4::"CircuitState", $5, $6, $7, now(), now(), $7)
    ON CONFLICT (project_id, provider, sdk_instance_id) DO UPDATE
      SET state = EXCLUDED.state, failure_count = EXCLUDED.failure_count,
          success_count = EXCLUDED.success_count, reported_at = EXCLUDED.reported_at,
          received_at = EXCLUDED.received_at
      WHERE ${table}.reported_at <= EXCLUDED.reported_at`,
};

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let body;
    try {
      body = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    } catch {
      res.writeHead(422, { "content-type": "application/json" }).end('{"detail":"invalid JSON"}');
      return;
    }
    pool
      .query({
        ...UPSERT,
        values: [
          projectId,
          body.provider,
          body.sdk_instance_id,
          body.state,
          body.failure_count,
          body.success_count,
          body.reported_at,
        ],
      })
      .then(
        () => res.writeHead(202, { "content-type": "application/json" }).end('{"accepted":true}'),
        (err) => {
          process.stderr.write(`bare reports: ${err.message}\n`);
          res.writeHead(503, { "content-type": "application/json" }).end('{"detail":"unavailable"}');
        },
      );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
