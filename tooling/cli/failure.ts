/** How both CLI entry points (fast.ts, bw.ts) report a failure: one line on stderr and an exit code. */
import type { Config } from "@breakwater/config";

export function fail(message: string, code: number): number {
  process.stderr.write(`bw: ${message}\n`);
  return code;
}

/** One line for an unexpected failure; the usual one is an unreachable or unmigrated database. */
export function describeFailure(err: unknown, config: Pick<Config, "DATABASE_URL">): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  const where = (() => {
    const u = new URL(config.DATABASE_URL);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  })();
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ETIMEDOUT") {
    return `cannot reach Postgres at ${where} (${code}); start it or set DATABASE_URL`;
  }
  if (code === "P2021" || code === "42P01" || /does not exist/.test(e.message ?? "")) {
    return `the database at ${where} is not migrated; run: npm run -s bw -- migrate`;
  }
  const first = (e.message ?? String(err)).split("\n").find((l) => l.trim()) ?? "unexpected error";
  return first.trim();
}
