// The machine's limit for a budget check: node:http that reads and JSON-parses the same body and
// does exactly one Redis EVALSHA (HINCRBY on a per-project hash + a read, returned), then answers
// a small JSON. No auth, no validation, no framework. Plain JavaScript so nothing but node runs.
// The ioredis client batches its writes like Breakwater's budget client (createBudgetRedis with
// enableAutoPipelining: the socket is corked from the first command of an event-loop turn until
// setImmediate, so the turn's commands leave in one write), so the comparison measures
// Breakwater's own work, not a client setting.
import { createServer } from "node:http";
import { Redis } from "ioredis";

const port = Number(process.argv[2]);
const redisUrl = process.argv[3];
if (!port || !redisUrl) {
  process.stderr.write("usage: bare-check-server.mjs <port> <redis-url>\n");
  process.exit(2);
}

const SCRIPT = `
local used = redis.call('HINCRBY', KEYS[1], 'reserved', ARGV[1])
local limit = tonumber(redis.call('HGET', KEYS[1], 'limit') or '1000000000000000')
return {used, limit}`;

const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
let corked = null;
const uncork = () => {
  const socket = corked;
  corked = null;
  socket?.uncork();
};
const send = redis.sendCommand;
redis.sendCommand = function (command, stream) {
  if (corked === null && this.stream) {
    corked = this.stream;
    corked.cork();
    setImmediate(uncork);
  }
  return send.call(this, command, stream);
};
const sha = await redis.script("LOAD", SCRIPT);
const key = `bench:bare:{${process.pid}}`;

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
    redis.evalsha(sha, 1, key, Number(body?.estimated_input_tokens) || 0).then(
      ([used, limit]) => {
        const out = JSON.stringify({
          allowed: used <= limit,
          remaining_budget: (limit - used) / 1e9,
          budget_limit: limit / 1e9,
          current_usage: used / 1e9,
          mode: "hard_deny",
          project_id: "proj_bare",
          reservation_id: `res_${used}`,
        });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
        res.end(out);
      },
      () => res.writeHead(503, { "content-type": "application/json" }).end('{"detail":"unavailable"}'),
    );
  });
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, "127.0.0.1", () => process.stdout.write(`bare check server on ${port}\n`));

const stop = () => {
  server.close();
  server.closeIdleConnections();
  redis.disconnect();
  setTimeout(() => process.exit(0), 200).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
