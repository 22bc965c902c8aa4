import { Command } from "commander";
import { describe, expect, it } from "vitest";

import { COMMAND_MODULES, modulesFor } from "./modules";

describe("the command modules", () => {
  it("name exactly the top-level commands each module registers", async () => {
    for (const entry of COMMAND_MODULES) {
      const program = new Command();
      (await entry.load())(program);
      expect(program.commands.map((command) => command.name()).sort()).toEqual([...entry.names].sort());
    }
  }, 60_000);

  it("load only the named command's module, and all of them for help or an unknown command", () => {
    expect(modulesFor(["report", "--dataset", "x"]).flatMap((entry) => entry.names)).toEqual(["report", "export"]);
    expect(modulesFor(["restore", "file"]).flatMap((entry) => entry.names)).toEqual(["backup", "restore"]);
    expect(modulesFor([])).toBe(COMMAND_MODULES);
    expect(modulesFor(["--help"])).toBe(COMMAND_MODULES);
    expect(modulesFor(["reprot"])).toBe(COMMAND_MODULES);
  });
});
