interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A process's stop, run once whatever asks for it (SIGTERM, SIGINT, its primary): `run` drains
 * and closes, resolving true when everything ended by itself; the process then exits 0, or 1
 * when `run` reports a cut or fails, and exits 1 regardless once `timeoutMs` has passed since the
 * first request (SHUTDOWN_TIMEOUT_MS: the bound an orchestrator can rely on).
 */
export function exitOnce(opts: {
  timeoutMs: number;
  log: ShutdownLog;
  run: (reason: string) => Promise<boolean>;
  exit?: (code: number) => void;
}): (reason: string) => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let started = false;
  return (reason) => {
    if (started) return;
    started = true;
    const force = setTimeout(() => {
      opts.log.error({ reason, timeoutMs: opts.timeoutMs }, "shutdown took too long; exiting");
      exit(1);
    }, opts.timeoutMs);
    force.unref();
    opts.run(reason).then(
      (clean) => exit(clean ? 0 : 1),
      (err: unknown) => {
        opts.log.error({ err }, "shutdown failed");
        exit(1);
      },
    );
  };
}
