import { describe, expect, it } from "vitest";
import * as leases from "../leases/lua";
import * as budgets from "./lua";

describe("Lua scripts", () => {
  it("every script Breakwater sends declares #!lua, so a cluster refuses keys outside its slot", () => {
    const scripts = [...Object.values(budgets), ...Object.values(leases)].filter(
      (v): v is budgets.LuaScript => typeof v === "object" && v !== null && "source" in v && "sha" in v,
    );
    expect(scripts.length).toBeGreaterThanOrEqual(9);
    for (const s of scripts) expect(s.source.startsWith("#!lua\n"), s.name).toBe(true);
  });
});
