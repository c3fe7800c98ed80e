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
  { name: "seed", summary: "Seed", flags: {}, remoteHint: "seed where the database is" },
  {
    name: "project list",
    summary: "List",
    via: "api",
    flags: { org: { type: "string", required: "local", localOnly: "the key's organization", help: "org" } },
  },
  {
    name: "key revoke",
    summary: "Revoke",
    via: "api",
    flags: {
      key: { type: "string", required: true, help: "key" },
      project: { type: "string", required: "remote", help: "project" },
    },
  },
  { name: "svix token", summary: "Token", via: "none", flags: {} },
  {
    name: "simulate",
    summary: "Simulate",
    flags: { url: { type: "string", help: "SDK API URL" } },
  },
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

  it("takes --url (or BREAKWATER_URL) before or after the command for the commands with a remote mode", () => {
    const url = "http://dash.test:3000";
    expect(parseCommand(commands, ["--url", url, "project", "list", "--json"])).toEqual({
      kind: "run",
      name: "project list",
      json: true,
      values: {},
      url,
    });
    expect(parseCommand(commands, ["project", "list", `--url=${url}`])).toMatchObject({ url });
    expect(parseCommand(commands, ["project", "list"], { remoteUrl: url })).toMatchObject({ url });
    expect(
      parseCommand(commands, ["--url", "http://flag.test", "project", "list"], { remoteUrl: url }),
    ).toMatchObject({ url: "http://flag.test" });
    // Without a URL the database is used, and the flags it needs are required again.
    expect(parseCommand(commands, ["project", "list", "--org", "acme"])).not.toHaveProperty("url");
    expect(() => parseCommand(commands, ["project", "list"])).toThrow(/missing --org .* for "project list"$/);
    expect(() => parseCommand(commands, ["key", "revoke", "--key", "key_1"], { remoteUrl: url })).toThrow(
      /missing --project \(project\) for "key revoke" with --url/,
    );
    // A command's own --url after the command stays its own; one that needs nothing ignores BREAKWATER_URL.
    expect(parseCommand(commands, ["simulate", "--url", "http://sdk.test"])).toEqual({
      kind: "run",
      name: "simulate",
      json: false,
      values: { url: "http://sdk.test" },
    });
    expect(parseCommand(commands, ["svix", "token"], { remoteUrl: url })).not.toHaveProperty("url");
    expect(usage(commands)).toContain(
      "through the management API over HTTP instead of the database: project list, key revoke.",
    );
    expect(usage(commands, commands[2])).toContain("(required without --url; not with --url)");
  });

  it.each([
    [
      ["--url", "http://d.test", "seed"],
      /^"seed" needs the database: .*without --url.*\(seed where the database is\)$/,
    ],
    [["--url", "http://d.test", "simulate"], /"simulate" needs the database/],
    [
      ["--url", "http://d.test", "project", "list", "--org", "acme"],
      /--org is not used with --url: the key's organization/,
    ],
    [["--url"], /--url needs a value/],
    [["--url", "--json", "seed"], /--url needs a value/],
    [["--url", "http://a.test", "project", "list", "--url", "http://b.test"], /--url given more than once/],
    [["--url", "http://d.test", "svix", "token"], /"svix token" does not use --url/],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseCommand(commands, argv)).toThrow(UsageError);
    expect(() => parseCommand(commands, argv)).toThrow(message);
  });

  it("refuses a command that needs the database when BREAKWATER_URL is set, naming the variable", () => {
    expect(() => parseCommand(commands, ["seed"], { remoteUrl: "http://d.test" })).toThrow(
      /"seed" needs the database: .*without BREAKWATER_URL/,
    );
    expect(parseCommand(commands, ["seed"], { remoteUrl: "  " })).toMatchObject({ name: "seed" });
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
