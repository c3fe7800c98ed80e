/** `bw simulate`: a simulated SDK fleet for one project over the real wire API, with a progress line. */
import { type Ctx, createApiKey, getProject } from "@breakwater/core";
import { runOutageScenario } from "../simulator/outage-scenario";
import { FleetSimulator, progressLine } from "../simulator/simulator";
import type { Result } from "./commands";
import type { FlagValue } from "./parse";
import { UsageError } from "./parse";

const PROVIDER_RE = /^[a-z][a-z0-9_]{1,31}$/;

export async function simulate(ctx: Ctx, v: Record<string, FlagValue | undefined>): Promise<Result> {
  const instances = (v.instances as number | undefined) ?? 50;
  const minutes = (v.minutes as number | undefined) ?? 5;
  const providers = String(v.providers ?? "openai,anthropic,google")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (instances < 1 || instances > 20_000) throw new UsageError("--instances must be between 1 and 20000");
  if (minutes < 1 || minutes > 24 * 60) throw new UsageError("--minutes must be between 1 and 1440");
  if (providers.length === 0 || providers.some((p) => !PROVIDER_RE.test(p)))
    throw new UsageError("--providers takes provider names separated by commas, e.g. openai,anthropic");
  const projectId = String(v.project);
  const project = await getProject(ctx, projectId);
  const apiKey =
    v.key !== undefined
      ? String(v.key)
      : (
          await createApiKey(ctx, {
            projectId: project.id,
            name: `simulator ${new Date().toISOString().slice(0, 16)}`,
          })
        ).apiKey;
  const baseUrl = v.url !== undefined ? String(v.url) : `http://localhost:${ctx.config.SDK_PORT}`;

  if (v.scenario !== undefined) {
    if (v.scenario !== "outage") throw new UsageError("--scenario takes: outage");
    const secs = (name: string, fallback: number) => {
      const n = (v[name] as number | undefined) ?? fallback;
      if (n < 0 || n > 3600) throw new UsageError(`--${name} must be between 0 and 3600`);
      return n * 1000;
    };
    const instancesOut = (v.instances as number | undefined) ?? 40;
    if (instancesOut > 2_000)
      throw new UsageError("--instances must be at most 2000 for the outage scenario");
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    process.stderr.write(
      `Outage scenario: ${instancesOut} instances of ${project.name} (${project.id}), ${providers[0]} goes out, against ${baseUrl}; Ctrl-C stops.\n`,
    );
    const started = Date.now();
    const stats = await runOutageScenario({
      baseUrl,
      apiKey,
      projectId: project.id,
      instances: instancesOut,
      providers,
      healthyMs: secs("healthy-seconds", 10),
      stepMs: secs("step-seconds", 20),
      recoverMs: secs("recover-seconds", 65),
      signal: abort.signal,
      onPhase: (phase, down, n) =>
        process.stderr.write(
          `${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s  ${phase}: ${down} of ${n} Down\n`,
        ),
    });
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    if (stats.lastError) process.stderr.write(`last wire error: ${stats.lastError}\n`);
    return {
      human: `Done: outage scenario, ${stats.reports} reports, ${stats.failovers} failovers, ${stats.errors} errors`,
      json: { project_id: project.id, scenario: "outage", instances: instancesOut, providers, ...stats },
    };
  }

  const sim = new FleetSimulator({
    baseUrl,
    apiKey,
    projectId: project.id,
    instances,
    providers,
    seed: v.seed as number | undefined,
  });
  const tty = process.stderr.isTTY === true;
  process.stderr.write(
    `Simulating ${instances} SDK instances of ${project.name} (${project.id}) against ${baseUrl} for ${minutes} min; Ctrl-C stops.\n`,
  );
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let lastLine = 0;
  const stats = await sim.run(
    minutes,
    (s) => {
      // A rewritten line on a terminal; one line every 10 s in a log.
      if (tty) process.stderr.write(`\r\u001b[2K${progressLine(s, minutes)}`);
      else if (s.elapsedMs - lastLine >= 10_000) {
        lastLine = s.elapsedMs;
        process.stderr.write(`${progressLine(s, minutes)}\n`);
      }
    },
    abort.signal,
  );
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  if (tty) process.stderr.write("\n");
  if (stats.lastError) process.stderr.write(`last wire error: ${stats.lastError}\n`);
  return {
    human: `Done: ${progressLine(stats, minutes)}`,
    json: {
      project_id: project.id,
      instances,
      providers,
      minutes,
      checks: stats.checks,
      confirms: stats.confirms,
      events: stats.events,
      failovers: stats.failovers,
      reports: stats.reports,
      silent: stats.silent,
      errors: stats.errors,
    },
  };
}
