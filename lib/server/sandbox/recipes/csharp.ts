import "server-only";

import { defineRecipe } from "./classify";
import { hoistLines, joinBlocks, splitLines } from "./splice-helpers";

// A using directive, not a using statement (`using var x = …;`, `using (…)`).
const USING_DIRECTIVE = /^\s*using\s+(?:static\s+)?(?:\w+\s*=\s*)?[\w.]+(?:<[\w.,\s<>]*>)?\s*;\s*$/;
const HAS_MAIN = /\bstatic\s+(?:async\s+)?(?:void|int|Task(?:<int>)?)\s+Main\s*\(/;
const RUN_TESTS_DEFINITION = /\bstatic\s+void\s+RunTests\s*\(/;

/**
 * Splices C#: hoists and dedupes `using` directives, makes bare `static` members `public`, and
 * renames the test's `RunTests` definition to `Main` when the program has no `Main`.
 */
export function spliceCsharp(solution: string, test: string): string {
  const { hoisted, bodies } = hoistLines([solution, test], (line) => USING_DIRECTIVE.test(line));
  let program = joinBlocks([hoisted.join("\n"), ...bodies]);
  program = splitLines(program)
    .map((line) => line.replace(/^(\s*)static\b/, "$1public static"))
    .join("\n");
  if (!HAS_MAIN.test(program)) {
    program = program.replace(RUN_TESTS_DEFINITION, "static void Main(");
  }
  return program;
}

// The project the reference builds from; restoring it needs the SDK's bundled packs only.
const CSPROJ = `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net8.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Nullable>disable</Nullable>
  </PropertyGroup>
</Project>
`;

export const csharpRecipe = defineRecipe({
  language: "csharp",
  timeoutAllowanceMs: 10_000,
  failurePatterns: ["Assertion failed"],
  splice(solution, test) {
    const program = spliceCsharp(solution, test);
    return {
      files: [
        { path: "MyProject/MyProject.csproj", content: CSPROJ },
        { path: "MyProject/Program.cs", content: program },
      ],
      program,
      syntaxError: null,
    };
  },
  compile: null,
  run: { argv: ["dotnet", "run", "--project", "MyProject"] },
  env: {
    DOTNET_CLI_HOME: "/job",
    DOTNET_NOLOGO: "1",
    DOTNET_CLI_TELEMETRY_OPTOUT: "1",
    DOTNET_SKIP_FIRST_TIME_EXPERIENCE: "1",
    NUGET_PACKAGES: "/job/.nuget/packages",
  },
  toolchain: { commands: ["dotnet"], version: ["dotnet", "--version"] },
  hello: {
    solution: "using System;\n\nclass Adder {\n    public static int Add(int a, int b) => a + b;\n}\n",
    test:
      "using System;\nusing System.Diagnostics;\n\nclass Program {\n    static void RunTests() {\n" +
      '        Debug.Assert(Adder.Add(1, 2) == 3);\n        if (Adder.Add(1, 2) != 3) throw new Exception("add is wrong");\n    }\n}\n',
  },
});
