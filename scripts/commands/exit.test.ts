// The CLI exits the process in one place only (exit.ts, after stdout and stderr are flushed): a
// command that wrote and then called process.exit lost the output still on its way to a pipe.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const commands = join(process.cwd(), "scripts", "commands");
const sources = [
  join(process.cwd(), "scripts", "cli.ts"),
  ...readdirSync(commands)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && name !== "exit.ts")
    .map((name) => join(commands, name)),
];

describe("how a verity command ends", () => {
  it("never exits the process itself: it returns, or ends through endCommand", () => {
    expect(sources.length).toBeGreaterThan(10);
    const exits = sources.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, n) => (/process\s*\.\s*(exit|reallyExit|abort)\s*\(/.test(line) ? [`${file}:${n + 1}`] : [])),
    );
    expect(exits).toEqual([]);
  });
});
