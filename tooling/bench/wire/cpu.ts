/**
 * CPU accounting for the benchmark: what a process (from /proc) and the Redis server (from its
 * INFO) spent, so every figure comes with its cost per request — the number that decides how far
 * a 2-core machine can go, and where a gap to the bare server lives.
 */
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU milliseconds the process has used so far (null when /proc cannot tell). */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of those.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds of every Postgres process on this host, by pid. Backends that start during a
 * measurement count from zero; ones that end are lost: an approximation, and the server is shared.
 */
export function postgresCpuByPid(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    const ms = processCpuMs(Number(entry));
    if (ms !== null) out.set(Number(entry), ms);
  }
  return out;
}

/** Busy CPU milliseconds of the whole machine so far (all cores; idle and iowait excluded). */
export function machineBusyMs(): number | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * TICK_MS;
  } catch {
    return null;
  }
}

export interface RedisStats {
  /** used_cpu_user + used_cpu_sys of the whole server, ms. */
  cpuMs: number;
  /** Per command: calls and microseconds inside the command (a script's inner calls included). */
  commands: Map<string, { calls: number; usec: number }>;
}

/**
 * Sends `commands` to the Redis of `url` over a plain socket (after AUTH when the URL has a
 * password) and resolves with what `read` makes of the bytes received so far: `undefined` waits for
 * more, `null` is a failure, as are a socket error and the timeout.
 */
function rawRedis<T>(
  url: string,
  commands: string[][],
  read: (received: Buffer) => T | null | undefined,
  timeoutMs: number,
): Promise<T | null> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  const username = decodeURIComponent(u.username);
  const all = [
    ...(password ? [username ? ["AUTH", username, password] : ["AUTH", password]] : []),
    ...commands,
  ];
  const payload = all
    .map((c) => `*${c.length}\r\n${c.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`)
    .join("");
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    let buf = Buffer.alloc(0);
    const finish = (v: T | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.on("connect", () => socket.write(payload));
    socket.on("error", () => finish(null));
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const v = read(buf);
      if (v !== undefined) finish(v);
    });
  });
}

/** CPU and command statistics of the whole Redis server (INFO cpu commandstats); null on failure. */
export function redisStats(url: string, timeoutMs = 1_000): Promise<RedisStats | null> {
  return rawRedis<RedisStats>(
    url,
    [["INFO", "cpu", "commandstats"]],
    (buf) => {
      // The INFO reply is one bulk string: "$<length>\r\n<text>\r\n" (after +OK for AUTH).
      const start = buf.indexOf("$");
      const eol = buf.indexOf("\r\n", start);
      if (start < 0 || eol < 0) return undefined;
      const length = Number(buf.subarray(start + 1, eol).toString());
      if (buf.length < eol + 2 + length) return undefined;
      const text = buf.subarray(eol + 2, eol + 2 + length).toString();
      const user = text.match(/used_cpu_user:([\d.]+)/);
      const sys = text.match(/used_cpu_sys:([\d.]+)/);
      const stats = new Map<string, { calls: number; usec: number }>();
      for (const m of text.matchAll(/cmdstat_([^:]+):calls=(\d+),usec=(\d+)/g)) {
        stats.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
      }
      return user && sys ? { cpuMs: (Number(user[1]) + Number(sys[1])) * 1000, commands: stats } : null;
    },
    timeoutMs,
  );
}

/** Runs `work` and reports the CPU milliseconds each named process and Redis spent meanwhile. */
export async function measureCpu<T>(
  pids: Record<string, number | undefined>,
  redisUrl: string,
  work: () => Promise<T>,
): Promise<{
  result: T;
  cpuMs: Record<string, number | null>;
  elapsedMs: number;
  /** Redis commands run meanwhile (whole server): calls and µs inside them. */
  redisCommands: Map<string, { calls: number; usec: number }>;
}> {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, processCpuMs(pid)]));
  const redisBefore = await redisStats(redisUrl);
  const pgBefore = postgresCpuByPid();
  const machineBefore = machineBusyMs();
  const t0 = performance.now();
  const result = await work();
  const elapsedMs = performance.now() - t0;
  const machineAfter = machineBusyMs();
  const pgAfter = postgresCpuByPid();
  const redisAfter = await redisStats(redisUrl);
  const cpuMs: Record<string, number | null> = {};
  for (const [k, pid] of Object.entries(pids)) {
    const a = before[k];
    const b = processCpuMs(pid);
    cpuMs[k] = a == null || b == null ? null : b - a;
  }
  cpuMs.redis = redisBefore == null || redisAfter == null ? null : redisAfter.cpuMs - redisBefore.cpuMs;
  const redisCommands = new Map<string, { calls: number; usec: number }>();
  for (const [name, after] of redisAfter?.commands ?? []) {
    const was = redisBefore?.commands.get(name) ?? { calls: 0, usec: 0 };
    if (after.calls > was.calls)
      redisCommands.set(name, { calls: after.calls - was.calls, usec: after.usec - was.usec });
  }
  let pgMs = 0;
  for (const [pid, ms] of pgAfter) pgMs += ms - (pgBefore.get(pid) ?? 0);
  cpuMs.postgres = pgMs;
  // Whatever else ran meanwhile (other tenants of a shared machine): the disturbance indicator.
  const known = Object.values(cpuMs).reduce<number>((sum, v) => sum + (v ?? 0), 0);
  cpuMs.other =
    machineBefore === null || machineAfter === null
      ? null
      : Math.max(0, machineAfter - machineBefore - known);
  return { result, cpuMs, elapsedMs, redisCommands };
}

/**
 * Unlinks every key matching `patterns` in the database of `url` (the benchmark's own Redis db)
 * with one server-side SCAN loop; resolves with the number removed, or null on failure.
 */
export function unlinkKeys(url: string, patterns: string[], timeoutMs = 30_000): Promise<number | null> {
  const db = new URL(url).pathname.replace(/^\//, "") || "0";
  const script = `local n = 0
for _, pattern in ipairs(ARGV) do
  local cursor = '0'
  repeat
    local r = redis.call('SCAN', cursor, 'MATCH', pattern, 'COUNT', 1000)
    cursor = r[1]
    if #r[2] > 0 then n = n + redis.call('UNLINK', unpack(r[2])) end
  until cursor == '0'
end
return n`;
  return rawRedis<number>(
    url,
    [
      ["SELECT", db],
      ["EVAL", script, "0", ...patterns],
    ],
    (buf) => {
      // Replies: +OK for AUTH and SELECT, then the script's integer; any error ends it.
      const text = buf.toString();
      if (text.includes("-")) return null;
      const m = /:(\d+)\r\n$/.exec(text);
      return m ? Number(m[1]) : undefined;
    },
    timeoutMs,
  );
}
