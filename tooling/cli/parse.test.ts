import { describe, expect, it } from "vitest";
import { type CommandSpec, parseCommand, UsageError, usage } from "./parse";

const commands: CommandSpec[] = [
  {
    name: "project create",
    summary: "Create",
    flags: {
      name: { type: "string", required: true, help: "name" },
      daily: { type: "usd", help: "daily" },
      "read-only": { type: "boolean", help: "ro" },
      mode: { type: "string", choices: ["a", "b"], help: "mode" },
    },
  },
  { name: "seed", summary: "Seed", flags: {} },
];

describe("parseCommand", () => {
  it("parses two-word commands, values, --flag=value, booleans and --json anywhere", () => {
    expect(
      parseCommand(commands, [
        "project",
        "create",
        "--json",
        "--name=x y",
        "--daily",
        "12.50",
        "--read-only",
      ]),
    ).toEqual({
      kind: "run",
      name: "project create",
      json: true,
      values: { name: "x y", daily: 12.5, "read-only": true },
    });
    expect(parseCommand(commands, ["seed"])).toMatchObject({ kind: "run", name: "seed", json: false });
  });

  it("answers help for help, --help and -h", () => {
    expect(parseCommand(commands, ["help"])).toEqual({ kind: "help", topic: undefined });
    expect(parseCommand(commands, ["project", "create", "-h"])).toMatchObject({
      kind: "help",
      topic: { name: "project create" },
    });
    expect(usage(commands)).toContain("project create");
    expect(usage(commands, commands[0])).toContain("--name <string>");
  });

  it.each([
    [["project", "create", "--name", "x", "--name", "y"], /given more than once/],
    [["project", "create", "--name", "x", "--daily", "1e3"], /positive amount/],
    [["project", "create", "--name", "x", "--daily", "0"], /positive amount/],
    [["project", "create", "--name", "  "], /must not be empty/],
    [["project", "create", "--name", "x", "--read-only=yes"], /takes no value/],
    [["project", "create", "--name", "x", "--mode", "c"], /one of a, b/],
    [["project", "create", "--name", "--json"], /needs a value/],
    [["project"], /unknown command "project"/],
    [["seed", "now"], /unexpected argument "now"/],
    [["seed", "--", "now"], /unexpected argument "--"/],
    [["project", "create", "--name", "x", "extra"], /unexpected argument "extra"/],
    [["project", "create", "-n", "x"], /unexpected argument "-n"/],
    [["project", "create", "--name", "x", "--bogus", "1"], /unknown flag --bogus .*expected --name, --daily/],
    [["project", "create", "--name", "x", "--json=yes"], /--json takes no value/],
    [["project", "create", "--name"], /--name needs a value/],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseCommand(commands, argv)).toThrow(UsageError);
    expect(() => parseCommand(commands, argv)).toThrow(message);
  });
});
