/** Flag parsing for the admin CLI: strict, with one-line messages an operator can act on. */
import { parseArgs } from "node:util";

export type FlagType = "string" | "boolean" | "usd" | "int";

export interface FlagSpec {
  type: FlagType;
  /** Always, or only on the database ("local") or only through the management API ("remote", --url). */
  required?: boolean | "local" | "remote";
  /** Refused with --url, for this reason: the flag means something only on the database. */
  localOnly?: string;
  choices?: readonly string[];
  help: string;
}

export interface CommandSpec {
  /** One or two words, e.g. "project create". */
  name: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /**
   * How the command runs with --url (or BREAKWATER_URL): "api" through the management API,
   * "none" the same as without (it needs neither the database nor the API). Unset: it needs the
   * database, and --url is refused naming it.
   */
  via?: "api" | "none";
  /** Said after the refusal of --url, e.g. where else to do it. */
  remoteHint?: string;
}

export type FlagValue = string | number | boolean;

export type ParsedCommand =
  | { kind: "help"; topic?: CommandSpec }
  | {
      kind: "run";
      name: string;
      json: boolean;
      values: Record<string, FlagValue | undefined>;
      /** The dashboard's URL when the command goes through the management API (--url or BREAKWATER_URL). */
      url?: string;
    };

/** Bad invocation: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

const HELP_HINT = "run `npm run -s bw -- help`";

/**
 * Parses `argv` (after `bw`) against the command table; throws UsageError on anything it cannot
 * accept. `--json` and `--url <dashboard URL>` are global (before or after the command; a command
 * with a `--url` flag of its own keeps it after the command); `remoteUrl` is BREAKWATER_URL, which
 * `--url` overrides.
 */
export function parseCommand(
  commands: CommandSpec[],
  argv: string[],
  opts: { remoteUrl?: string } = {},
): ParsedCommand {
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const rest = argv.filter((a) => a !== "--help" && a !== "-h");
  let json = false;
  let url: string | undefined;
  // Global flags before the command: `bw --url https://… project list`.
  while (rest[0]?.startsWith("--")) {
    const arg = rest[0]!;
    if (arg === "--json") {
      rest.shift();
      json = true;
    } else if (arg === "--url") {
      rest.shift();
      url = urlValue(rest.shift(), false, url);
    } else if (arg.startsWith("--url=")) {
      rest.shift();
      url = urlValue(arg.slice("--url=".length), true, url);
    } else break;
  }
  const words: string[] = [];
  while (words.length < 2 && rest[0] !== undefined && !rest[0].startsWith("-")) words.push(rest.shift()!);

  if (words.length === 0 || words[0] === "help") {
    const topic = words[1]
      ? findCommand(commands, [words[1], ...rest.filter((a) => !a.startsWith("-"))])
      : null;
    if (words.length === 0 && !wantsHelp) throw new UsageError(`missing command; ${HELP_HINT}`);
    return { kind: "help", topic: topic?.spec };
  }

  const found = findCommand(commands, words);
  if (!found) throw new UsageError(`unknown command "${words.join(" ")}"; ${HELP_HINT}`);
  const { spec, used } = found;
  // A second word that was not part of the command name is a stray positional.
  if (used < words.length) {
    throw new UsageError(
      `unexpected argument "${words[used]}" for "${spec.name}"; flags look like --name value`,
    );
  }
  if (wantsHelp) return { kind: "help", topic: spec };

  // A command's own --url (simulate's SDK API URL) wins over the global one after the command.
  const globalUrl = !spec.flags.url;
  const values: Record<string, FlagValue | undefined> = {};
  const unexpected = (arg: string) =>
    new UsageError(`unexpected argument "${arg}" for "${spec.name}"; flags look like --name value`);
  // node:util tokenizes (--flag value, --flag=value, booleans); the checks stay ours, so every
  // refusal is one line naming the flag. Not strict: unknown flags come back as tokens to name.
  const { tokens } = parseArgs({
    args: rest,
    options: {
      json: { type: "boolean" },
      ...(globalUrl ? { url: { type: "string" as const } } : {}),
      ...Object.fromEntries(
        Object.entries(spec.flags).map(([flag, f]) => [
          flag,
          { type: f.type === "boolean" ? "boolean" : "string" },
        ]),
      ),
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "positional") throw unexpected(token.value);
    if (token.kind === "option-terminator") throw unexpected("--");
    if (!token.rawName.startsWith("--")) throw unexpected(rest[token.index] ?? token.rawName);
    const flag = token.name;
    if (flag === "json") {
      if (token.inlineValue) throw new UsageError("--json takes no value");
      json = true;
      continue;
    }
    if (flag === "url" && globalUrl) {
      url = urlValue(token.value, token.inlineValue === true, url);
      continue;
    }
    const f = spec.flags[flag];
    if (!f) {
      const known = Object.keys(spec.flags).map((k) => `--${k}`);
      throw new UsageError(
        `unknown flag --${flag} for "${spec.name}"${known.length ? ` (expected ${known.join(", ")})` : ""}`,
      );
    }
    if (values[flag] !== undefined) throw new UsageError(`--${flag} given more than once`);
    if (f.type === "boolean") {
      if (token.inlineValue) throw new UsageError(`--${flag} takes no value`);
      values[flag] = true;
      continue;
    }
    const raw = token.value;
    if (raw === undefined || (!token.inlineValue && raw.startsWith("--"))) {
      throw new UsageError(`--${flag} needs a value`);
    }
    values[flag] = convert(flag, f, raw);
  }

  const envUrl = opts.remoteUrl?.trim() || undefined;
  let remote: string | undefined;
  if (spec.via === "api") remote = url ?? envUrl;
  else if (spec.via === "none") {
    if (url !== undefined) throw new UsageError(`"${spec.name}" does not use --url: drop it`);
  } else if (url !== undefined || envUrl !== undefined) {
    const why = url !== undefined ? "--url" : "BREAKWATER_URL";
    throw new UsageError(
      `"${spec.name}" needs the database: the management API has no route for it. Run it without ${why}, where DATABASE_URL reaches Postgres${spec.remoteHint ? ` (${spec.remoteHint})` : ""}`,
    );
  }
  const mode = remote === undefined ? "local" : "remote";

  for (const [flag, f] of Object.entries(spec.flags)) {
    if (mode === "remote" && f.localOnly && values[flag] !== undefined) {
      throw new UsageError(`--${flag} is not used with --url: ${f.localOnly}`);
    }
    if ((f.required === true || f.required === mode) && values[flag] === undefined) {
      const when = f.required === "remote" ? " with --url" : "";
      throw new UsageError(`missing --${flag} (${f.help}) for "${spec.name}"${when}`);
    }
  }
  return remote === undefined
    ? { kind: "run", name: spec.name, json, values }
    : { kind: "run", name: spec.name, json, values, url: remote };
}

/** The value of a global --url, refused when missing, blank or given twice. */
function urlValue(raw: string | undefined, inline: boolean, earlier: string | undefined): string {
  if (raw === undefined || (!inline && raw.startsWith("--")) || raw.trim() === "") {
    throw new UsageError("--url needs a value (the dashboard's URL, e.g. https://breakwater.example.com)");
  }
  if (earlier !== undefined) throw new UsageError("--url given more than once");
  return raw.trim();
}

function findCommand(commands: CommandSpec[], words: string[]): { spec: CommandSpec; used: number } | null {
  const two = words.slice(0, 2).join(" ");
  const byTwo = commands.find((c) => c.name === two);
  if (byTwo) return { spec: byTwo, used: 2 };
  const byOne = commands.find((c) => c.name === words[0]);
  return byOne ? { spec: byOne, used: 1 } : null;
}

function convert(flag: string, f: FlagSpec, raw: string): FlagValue {
  switch (f.type) {
    case "string": {
      const v = raw.trim();
      if (!v) throw new UsageError(`--${flag} must not be empty`);
      if (f.choices && !f.choices.includes(v)) {
        throw new UsageError(`--${flag} must be one of ${f.choices.join(", ")} (got "${raw}")`);
      }
      return v;
    }
    case "usd": {
      const n = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n) || n <= 0 || n > 1_000_000_000) {
        throw new UsageError(
          `--${flag} must be a positive amount in US dollars, e.g. 25 or 12.50 (got "${raw}")`,
        );
      }
      return n;
    }
    case "int": {
      const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(n) || n <= 0) {
        throw new UsageError(`--${flag} must be a positive whole number (got "${raw}")`);
      }
      return n;
    }
    case "boolean":
      return true;
  }
}

/** The help text: every command, or one command's flags. */
export function usage(commands: CommandSpec[], topic?: CommandSpec): string {
  if (topic) {
    const lines = [
      `Usage: npm run -s bw -- ${topic.name} ${flagSynopsis(topic)}[--json]`,
      "",
      topic.summary,
      "",
    ];
    for (const [flag, f] of Object.entries(topic.flags)) {
      const arg = f.type === "boolean" ? "" : f.choices ? ` <${f.choices.join("|")}>` : ` <${f.type}>`;
      const notes = [
        f.required === true ? "required" : f.required === "local" ? "required without --url" : null,
        f.required === "remote" ? "required with --url" : null,
        f.localOnly ? "not with --url" : null,
      ].filter(Boolean);
      lines.push(`${`  --${flag}${arg}`.padEnd(36)}${f.help}${notes.length ? ` (${notes.join("; ")})` : ""}`);
    }
    lines.push(`${"  --json".padEnd(36)}print one JSON value on stdout, nothing else`);
    if (topic.via === "api" && !topic.flags.url) {
      lines.push(
        `${"  --url <url>".padEnd(36)}through the management API of this dashboard (or BREAKWATER_URL), with BREAKWATER_TOKEN=sk_mgmt_…`,
      );
    }
    return `${lines.join("\n")}\n`;
  }
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  const remote = commands.filter((c) => c.via === "api").map((c) => c.name);
  return [
    "Breakwater admin CLI",
    "",
    "Usage: npm run -s bw -- <command> [flags] [--json]",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "`npm run -s bw -- <command> --help` shows a command's flags. Exit codes: 0 ok, 1 refused or failed, 2 bad input.",
    "",
    ...(remote.length
      ? [
          "Remote mode: with --url <dashboard URL> (or BREAKWATER_URL) and BREAKWATER_TOKEN set to a management key",
          `(sk_mgmt_…), these go through the management API over HTTP instead of the database: ${remote.join(", ")}.`,
          "",
        ]
      : []),
  ].join("\n");
}

function flagSynopsis(c: CommandSpec): string {
  return Object.entries(c.flags)
    .map(([flag, f]) => {
      const part = f.type === "boolean" ? `--${flag}` : `--${flag} <${f.type === "string" ? flag : f.type}>`;
      return f.required === true ? `${part} ` : `[${part}] `;
    })
    .join("");
}
