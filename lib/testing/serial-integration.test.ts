import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { findIsolatedIntegrationFiles, findSerialIntegrationFiles } from "./serial-integration";

const root = mkdtempSync(join(tmpdir(), "verity-serial-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe("the serial integration files", () => {
  it("are the integration files whose opening comment gives the reason, wherever they sit", () => {
    write(
      "lib/a.int.test.ts",
      "// What a tests.\n// Integration: serial — it times the machine.\nimport x from 'y';\n",
    );
    write("lib/deep/b.int.test.ts", "// Integration: serial — a fixed port.\n");
    write(
      "lib/c.int.test.ts",
      "// What c tests.\nimport x from 'y';\n// Integration: serial — too late: not the opening comment.\n",
    );
    write("lib/d.int.test.ts", "// Integration: serial —\nimport x from 'y';\n");
    write("lib/e.test.ts", "// Integration: serial — a unit file is no integration file.\n");
    write("node_modules/f.int.test.ts", "// Integration: serial — a dependency's.\n");
    expect(findSerialIntegrationFiles(root)).toEqual(["lib/a.int.test.ts", "lib/deep/b.int.test.ts"]);
  });

  it("include files of this repository, and only integration files", () => {
    const files = findSerialIntegrationFiles(process.cwd());
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(/\.int\.test\.ts$/);
  });
});

describe("the integration files that need an import of their own", () => {
  it("are those that mock a module, change the environment, or touch globals or timers, and are not serial", () => {
    const isolated = mkdtempSync(join(tmpdir(), "verity-isolated-"));
    try {
      const files: Record<string, string> = {
        "a.int.test.ts": 'vi.mock("@/lib/server/auth/password-hasher");\n',
        "b.int.test.ts": 'setEnv({ VERITY_SANDBOX: "acb" });\n',
        "c.int.test.ts": "process.env.TMPDIR = folder;\n",
        "c2.int.test.ts": "delete process.env.VERITY_SANDBOX;\n",
        "c3.int.test.ts": 'process.env["TZ"] ??= "UTC";\n',
        "d.int.test.ts": "(globalThis as { x?: number }).x = 1;\n",
        "e.int.test.ts": "vi.useFakeTimers();\n",
        "f.int.test.ts": "// Integration: serial — a fixed port.\nvi.mock('x');\n",
        "g.int.test.ts": "const rows = await prisma().user.findMany();\n",
        "h.int.test.ts": "const environment = 'process.envelope';\n",
        "i.int.test.ts": "const url = process.env.DATABASE_URL;\nspawn(cli, { env: process.env });\n",
        "j.int.test.ts": "if (process.env.SEED === '1') run();\n",
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(join(isolated, name), text);
      expect(findIsolatedIntegrationFiles(isolated)).toEqual([
        "a.int.test.ts",
        "b.int.test.ts",
        "c.int.test.ts",
        "c2.int.test.ts",
        "c3.int.test.ts",
        "d.int.test.ts",
        "e.int.test.ts",
      ]);
    } finally {
      rmSync(isolated, { recursive: true, force: true });
    }
  });
});
