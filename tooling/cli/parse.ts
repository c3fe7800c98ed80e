/** Flag parsing for the admin CLI: strict, with one-line messages an operator can act on. */
import { parseArgs } from "node:util";

export type FlagType = "string" | "boolean" | "usd" | "int";

export interface FlagSpec {
  type: FlagType;
  required?: boolean;
  choices?: readonly string[];
  help: string;
}

export interface CommandSpec {
  /** One or two words, e.g. "project create". */
  name: string;
  summary: string;
  flags: Record<string, FlagSpec>;
}

export type FlagValue = string | number | boolean;

export type ParsedCommand =
  | { kind: "help"; topic?: CommandSpec }
  | { kind: "run"; name: string; json: boolean; values: Record<string, FlagValue | undefined> };

/** Bad invocation: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

const HELP_HINT = "run `npm run -s bw -- help`";

/** Parses `argv` (after `bw`) against the command table; throws UsageError on anything it cannot accept. */
export function parseCommand(commands: CommandSpec[], argv: string[]): ParsedCommand {
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const rest = argv.filter((a) => a !== "--help" && a !== "-h");
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

  let json = false;
  const values: Record<string, FlagValue | undefined> = {};
  const unexpected = (arg: string) =>
    new UsageError(`unexpected argument "${arg}" for "${spec.name}"; flags look like --name value`);
  // node:util tokenizes (--flag value, --flag=value, booleans); the checks stay ours, so every
  // refusal is one line naming the flag. Not strict: unknown flags come back as tokens to name.
  const { tokens } = parseArgs({
    args: rest,
    options: {
      json: { type: "boolean" },
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

  for (const [flag, f] of Object.entries(spec.flags)) {
    if (f.required && values[flag] === undefined) {
      throw new UsageError(`missing --${flag} (${f.help}) for "${spec.name}"`);
    }
  }
  return { kind: "run", name: spec.name, json, values };
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
      lines.push(`${`  --${flag}${arg}`.padEnd(36)}${f.help}${f.required ? " (required)" : ""}`);
    }
    lines.push(`${"  --json".padEnd(36)}print one JSON value on stdout, nothing else`);
    return `${lines.join("\n")}\n`;
  }
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  return [
    "Breakwater admin CLI",
    "",
    "Usage: npm run -s bw -- <command> [flags] [--json]",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "`npm run -s bw -- <command> --help` shows a command's flags. Exit codes: 0 ok, 1 refused or failed, 2 bad input.",
    "",
  ].join("\n");
}

function flagSynopsis(c: CommandSpec): string {
  return Object.entries(c.flags)
    .map(([flag, f]) => {
      const part = f.type === "boolean" ? `--${flag}` : `--${flag} <${f.type === "string" ? flag : f.type}>`;
      return f.required ? `${part} ` : `[${part}] `;
    })
    .join("");
}
