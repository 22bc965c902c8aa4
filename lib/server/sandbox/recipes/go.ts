import "server-only";

import { SANDBOX_PATH, TOOLCHAINS_DIR } from "@/lib/server/sandbox/isolation";

import { defineRecipe } from "./classify";

type GoImport = { alias: string | null; path: string };

const IMPORT_BLOCK = /^[ \t]*import\s*\(([\s\S]*?)\)[ \t]*;?[ \t]*$/gm;
const IMPORT_SINGLE = /^[ \t]*import\s+(?:([\w.]+)\s+)?"([^"]+)"[ \t]*;?[ \t]*$/gm;
const IMPORT_SPEC = /^\s*(?:([\w.]+)\s+)?"([^"]+)"/;

function parseImports(source: string): GoImport[] {
  const found: GoImport[] = [];
  for (const match of source.matchAll(IMPORT_BLOCK)) {
    for (const line of match[1].split(/\r?\n|;/)) {
      const spec = IMPORT_SPEC.exec(line.replace(/\/\/.*$/, ""));
      if (spec) found.push({ alias: spec[1] ?? null, path: spec[2] });
    }
  }
  for (const match of source.matchAll(IMPORT_SINGLE)) {
    found.push({ alias: match[1] ?? null, path: match[2] });
  }
  return found;
}

function stripPackageAndImports(source: string): string {
  return source
    .replace(IMPORT_BLOCK, "")
    .replace(IMPORT_SINGLE, "")
    .replace(/^[ \t]*package\s+\w+[ \t]*;?[ \t]*$/gm, "")
    .trim();
}

function importName(spec: GoImport): string {
  if (spec.alias) return spec.alias;
  const segments = spec.path.split("/");
  const last = segments.at(-1) ?? spec.path;
  // "gopkg.in/yaml.v3" → yaml, "example.com/mod/v2" → mod
  if (/^v\d+$/.test(last) && segments.length > 1) return segments.at(-2) ?? last;
  return last.replace(/\.v\d+$/, "").replace(/^go-/, "");
}

/**
 * Go source with its comments and string literals blanked, for telling whether a package is used:
 * "a list of strings." in a comment is no call to package strings.
 */
function codeOnly(source: string): string {
  return source.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'/g, (text) =>
    text.replace(/[^\n]/g, " "),
  );
}

/**
 * Splices Go into one `package main` test file: imports of both parts merged, deduped, and the
 * unused ones dropped (Go refuses unused imports, and the two parts often import the same packages
 * for different uses). When the test has no `func TestXxx`, a test calling its entry point is added.
 */
export function spliceGo(solution: string, test: string): string {
  const bodySolution = stripPackageAndImports(solution);
  let bodyTest = stripPackageAndImports(test);
  if (!/\bfunc\s+Test\w*\s*\(/.test(bodyTest)) {
    const entry = ["demoTesting", "fullTesting", "main"].find((name) =>
      new RegExp(`\\bfunc\\s+${name}\\s*\\(\\s*\\)`).test(`${bodySolution}\n${bodyTest}`),
    );
    if (entry) bodyTest += `\n\nfunc TestSandboxEntry(t *testing.T) {\n\t${entry}()\n}`;
  }
  const code = `${bodySolution}\n\n${bodyTest}`;
  const uses = codeOnly(code);
  const seen = new Set<string>();
  const imports: GoImport[] = [];
  for (const spec of [...parseImports(solution), ...parseImports(test), { alias: null, path: "testing" }]) {
    const key = `${spec.alias ?? ""} ${spec.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const name = importName(spec);
    const isUsed = name === "_" || name === "." || new RegExp(`(?<![\\w.])${name}\\s*\\.\\s*[A-Za-z_]`).test(uses);
    if (isUsed) imports.push(spec);
  }
  const importBlock = imports.length
    ? `import (\n${imports.map((spec) => `\t${spec.alias ? `${spec.alias} ` : ""}"${spec.path}"`).join("\n")}\n)\n\n`
    : "";
  return `package main\n\n${importBlock}${code}\n`;
}

/**
 * The reference image's Go (1.24.5), which the sandbox install puts at GO_ROOT (the Go toolchain module; on a
 * machine that cannot reach the Go module proxy GO_ROOT links to Debian's Go 1.23 instead).
 */
export const GO_ROOT = `${TOOLCHAINS_DIR}/go`;

/**
 * A copy of the build cache made by the install script: vet's facts about the standard packages,
 * which `go test` would otherwise work out again in every job (seconds per run). Copied into the
 * job's own cache, so no run writes anything another run reads.
 */
export const GO_CACHE_SEED = `${TOOLCHAINS_DIR}/go-cache-seed`;

/**
 * Each job's go.mod sets the language version to the Go that runs it (`go 1.24.5` with the
 * reference's Go): with an older line, min/max, range-over-int or generic type aliases are refused
 * even by a newer compiler, and a newer line than the installed Go refuses to build at all.
 */
const GO_PREPARE_SCRIPT =
  `mkdir -p "$GOCACHE" && { [ ! -d ${GO_CACHE_SEED} ] || cp -r ${GO_CACHE_SEED}/. "$GOCACHE"/; } && ` +
  'v="$(go env GOVERSION)" && printf \'module sandbox\\n\\ngo %s\\n\' "${v#go}" > go.mod && ' +
  // A dataset environment with Go modules (lib/server/sandbox/environment.ts): its pinned requirements and sums.
  // With its build-cache seed: the modules' packages compiled and vetted once (environment-build.ts).
  '{ [ -z "$SANDBOX_GO_ENVIRONMENT" ] || { cat "$SANDBOX_GO_ENVIRONMENT/go.mod.require" >> go.mod && cp "$SANDBOX_GO_ENVIRONMENT/go.sum" go.sum && ' +
  '{ [ ! -d "$SANDBOX_GO_ENVIRONMENT/build-cache" ] || cp -r "$SANDBOX_GO_ENVIRONMENT/build-cache/." "$GOCACHE"/; }; }; } && ';
export const GO_RUN_SCRIPT = `${GO_PREPARE_SCRIPT}exec go test -count=1 .`;

/**
 * The same build (vet included) left as a test binary, and how `go test` runs one: a test that
 * calls os.Exit(0) fails there, so it does here too.
 */
const GO_SWITCHED = {
  compile: { argv: ["sh", "-c", `${GO_PREPARE_SCRIPT}exec go test -c -o verity.test .`] },
  run: { argv: ["./verity.test", "-test.paniconexit0", "-test.count=1"] },
};

/**
 * The Go settings of a run with a dataset environment that the environment's build-cache seed is
 * made with too: `-trimpath` keeps the cache keys free of where each job's module cache is.
 */
export const GO_ENVIRONMENT_RUN_SETTINGS = {
  GODEBUG: "installgoroot=all",
  GOFLAGS: "-mod=mod -trimpath",
  GOTOOLCHAIN: "local",
  GO111MODULE: "on",
  CGO_ENABLED: "0",
  GOSUMDB: "off",
} as const;

export const goRecipe = defineRecipe({
  language: "go",
  timeoutAllowanceMs: 1_000,
  failurePatterns: [],
  splice(solution, test) {
    const program = spliceGo(solution, test);
    return {
      files: [{ path: "main_test.go", content: program }],
      program,
      syntaxError: null,
    };
  },
  compile: null,
  // One step like the reference: a build failure inside `go test` is a RUNTIME_ERROR there too.
  run: { argv: ["sh", "-c", GO_RUN_SCRIPT] },
  switched: GO_SWITCHED,
  env: {
    // The install's Go first, then Debian's backported Go when the install predates GO_ROOT.
    PATH: `${GO_ROOT}/bin:/usr/lib/go-1.23/bin:${SANDBOX_PATH}`,
    // Use the standard library the install compiled into GOROOT/pkg (read-only) instead of
    // compiling it into each job's empty cache: a minute per run on 2 cores otherwise.
    GODEBUG: "installgoroot=all",
    GOCACHE: "/job/.cache/go-build",
    GOPATH: "/job/.go",
    GOMODCACHE: "/job/.go/pkg/mod",
    GOFLAGS: "-mod=mod",
    GOPROXY: "off",
    GOSUMDB: "off",
    GOTOOLCHAIN: "local",
    GOTELEMETRY: "off",
    GO111MODULE: "on",
    CGO_ENABLED: "0",
  },
  toolchain: { commands: ["go"], version: ["go", "version"] },
  hello: {
    solution:
      'package main\n\nimport "fmt"\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc show() { fmt.Println(Add(1, 2)) }\n',
    test: 'package main\n\nimport "testing"\n\nfunc TestDemo(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("add is wrong")\n\t}\n}\n',
  },
});
