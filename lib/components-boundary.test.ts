// Components write only through server actions their page passes in (docs/architecture.md): the
// lint rules in eslint.config.mjs refuse an import from app/ and a fetch in components/. These tests
// lint small files placed in components/ with the project's real configuration.
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

// Loading the configuration (Next's plugins) takes seconds on a busy machine; do it once, up front.
beforeAll(() => eslint.calculateConfigForFile("components/example/example.tsx"), 60_000);

async function problems(code: string, filePath = "components/example/example.tsx"): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter((message) => message.ruleId === "no-restricted-imports" || message.ruleId === "no-restricted-syntax")
    .map((message) => `${message.ruleId}: ${message.message}`);
}

describe("components/ boundary", () => {
  it("refuses an import of a server action from app/", async () => {
    expect(
      await problems(
        `import { inviteUserAction } from "@/app/(app)/admin/users/actions";\nexport const x = inviteUserAction;\n`,
      ),
    ).toEqual([expect.stringMatching(/^no-restricted-imports: .*as a prop/)]);
    expect(await problems(`import type { Thing } from "../../app/signin/actions";\nexport type X = Thing;\n`)).toEqual([
      expect.stringMatching(/^no-restricted-imports: /),
    ]);
  });

  it("refuses fetch, to the REST API or through window", async () => {
    const call = await problems(
      'export async function go(id: string) {\n  await fetch(`/api/v1/items/${id}/skip`, { method: "POST" });\n}\n',
    );
    expect(call).toEqual([expect.stringMatching(/^no-restricted-syntax: .*server action/)]);
    expect(await problems(`export const go = (url: string) => window.fetch(url);\n`)).toHaveLength(1);
  });

  it("refuses the server's action wrapper: action types come from the client-safe module", async () => {
    expect(
      await problems(
        `import type { Action } from "@/lib/server/action";\nexport type Skip = Action<{ id: string }, null>;\n`,
      ),
    ).toEqual([expect.stringMatching(/^no-restricted-imports: .*lib\/actions\/result/)]);
  });

  it("allows an action received as a prop and imports from lib/ or components/", async () => {
    const code = `import type { Action } from "@/lib/actions/result";\nimport { Button } from "@/components/ui/primitives";\nexport async function go(skip: Action<{ id: string }, null>) {\n  return [Button, await skip({ id: "1" })];\n}\n`;
    expect(await problems(code)).toEqual([]);
  });

  it("leaves pages free to import their actions", async () => {
    expect(
      await problems(
        `import { inviteUserAction } from "@/app/(app)/admin/users/actions";\nexport const x = inviteUserAction;\n`,
        "app/(app)/admin/users/page.tsx",
      ),
    ).toEqual([]);
  });
});
