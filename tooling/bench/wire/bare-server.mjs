// The machine's limit for a budget check: node:http that reads and parses the same JSON body and
// does exactly one Redis EVALSHA, with no framework, no auth and no validation.
import { createServer } from "node:http";
import { Redis } from "ioredis";

const port = Number(process.env.BARE_PORT ?? 3421);
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0");
const sha = await redis.script("LOAD", "return redis.call('INCRBY', KEYS[1], ARGV[1])");
const key = `bench:bare:${process.pid}`;

createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(422).end();
      return;
    }
    redis.evalsha(sha, 1, key, String(body.estimated_input_tokens ?? 0)).then(
      (n) => {
        const out = `{"allowed":true,"remaining_budget":${Number(n)}.0,"project_id":"bare"}`;
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
        res.end(out);
      },
      () => res.writeHead(503).end(),
    );
  });
}).listen(port, "127.0.0.1", () =>
  process.stdout.write(`bare server on ${port}\n`),
).keepAliveTimeout = 65_000;
