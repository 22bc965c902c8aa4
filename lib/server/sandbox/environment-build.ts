import "server-only";

import { spawn } from "node:child_process";
import { chmod, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import {
  type EnvironmentKind,
  type EnvironmentLock,
  type EnvironmentSpec,
  kindsOf,
} from "@/lib/records/environment-spec";
import { DEFAULT_REGISTRIES, type EnvironmentRegistries } from "./config";
import { ENVIRONMENT_MOUNT } from "./environment";
import { GO_CACHE_SEED, GO_ENVIRONMENT_RUN_SETTINGS, GO_ROOT } from "./recipes/go";

/**
 * Builds a dataset environment into a folder, from the registries the server reaches, without
 * running any package's own code: wheels only (no setup.py), npm with --ignore-scripts, Go modules
 * downloaded (not built), Maven jars copied, Debian packages unpacked (no maintainer scripts). Rust
 * crates alone are built here, and cargo runs their build scripts (buildRust). The folder is then
 * made read-only; the sandbox mounts it at /env (environment.ts).
 *
 * Layout: python/ (a --target folder), node/node_modules, go/proxy (a module proxy in the file
 * layout) with go/go.mod.require and go/go.sum, java/*.jar, debian/ (unpacked packages' roots),
 * rust/deps (rlibs) with rust/extern.args.
 */

export type BuildResult = { lock: EnvironmentLock; sizeBytes: number; javaJars: string[] };

/** A step that failed, with the tool's own last words (what the admin reads to fix the spec). */
export class EnvironmentBuildError extends Error {}

type Log = (line: string) => void;

/** What every kind's builder is given besides its entries and folder. */
type BuildContext = { log: Log; signal?: AbortSignal; registries: EnvironmentRegistries };

/** Each package manager gets this long before the build is called failed. */
const STEP_TIMEOUT_MS = 15 * 60_000;

/** Runs one tool, streaming its output into the log; rejects with its last lines when it fails. */
function runTool(
  argv: string[],
  options: { cwd: string; env?: Record<string, string>; log: Log; what: string; signal?: AbortSignal },
): Promise<string> {
  return new Promise((resolve, reject) => {
    options.log(`$ ${argv.join(" ")}`);
    const child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: STEP_TIMEOUT_MS,
      signal: options.signal,
    });
    let stdout = "";
    const tail: string[] = [];
    const take = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString("utf8");
      if (isStdout) stdout += text;
      for (const line of text.split(/\r?\n/)) {
        if (line.trim() === "") continue;
        options.log(line);
        tail.push(line);
        if (tail.length > 12) tail.shift();
      }
    };
    child.stdout.on("data", (chunk: Buffer) => take(chunk, true));
    child.stderr.on("data", (chunk: Buffer) => take(chunk, false));
    child.on("error", (error) =>
      reject(new EnvironmentBuildError(`${options.what}: ${argv[0]} could not start (${error.message})`)),
    );
    child.on("close", (code, signal) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new EnvironmentBuildError(
            `${options.what} failed (${signal ? `killed by ${signal}` : `exit ${code}`}): ${tail.slice(-4).join(" | ") || "no output"}`,
          ),
        );
    });
  });
}

async function buildPython(entries: string[], dir: string, { log, signal }: BuildContext): Promise<string[]> {
  const target = join(dir, "python");
  await runTool(
    [
      // The sandbox's Python (Debian's): wheels for its version and ABI.
      "/usr/bin/python3",
      "-m",
      "pip",
      "install",
      "--target",
      target,
      "--only-binary=:all:",
      "--no-cache-dir",
      "--disable-pip-version-check",
      "--no-input",
      "--no-warn-script-location",
      "--",
      ...entries,
    ],
    { cwd: dir, log, what: "pip install", signal },
  );
  const names = await readdir(target);
  return names
    .map((name) => /^(.+)-([^-]+)\.dist-info$/.exec(name))
    .filter((match) => match !== null)
    .map((match) => `${match[1]}==${match[2]}`)
    .sort();
}

async function buildNpm(entries: string[], dir: string, { log, signal }: BuildContext): Promise<string[]> {
  const root = join(dir, "node");
  await mkdir(root, { recursive: true });
  const dependencies = Object.fromEntries(
    entries.map((entry) => {
      const at = entry.lastIndexOf("@");
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
  );
  await writeFile(join(root, "package.json"), JSON.stringify({ private: true, dependencies }, null, 2));
  await runTool(["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--omit=dev", "--save-exact"], {
    cwd: root,
    log,
    what: "npm install",
    signal,
  });
  const lock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as {
    packages?: Record<string, { version?: string }>;
  };
  return Object.entries(lock.packages ?? {})
    .filter(([path]) => path.startsWith("node_modules/"))
    .map(([path, info]) => `${path.slice("node_modules/".length)}@${info.version ?? "?"}`)
    .sort();
}

async function buildGo(entries: string[], dir: string, { log, signal, registries }: BuildContext): Promise<string[]> {
  const work = join(dir, ".go-work");
  const modcache = join(dir, ".go-modcache");
  await mkdir(work, { recursive: true });
  const env = {
    PATH: `${GO_ROOT}/bin:/usr/lib/go-1.23/bin:${process.env.PATH ?? ""}`,
    GOMODCACHE: modcache,
    GOPATH: join(dir, ".go-path"),
    GOCACHE: join(dir, ".go-build"),
    GOFLAGS: "-modcacherw",
    GOTOOLCHAIN: "local",
    GOTELEMETRY: "off",
    GOPROXY: registries.goProxy,
  };
  const go = (args: string[], what: string) => runTool(["go", ...args], { cwd: work, env, log, what, signal });
  await go(["mod", "init", "verity.env"], "go mod init");
  await go(["get", "--", ...entries], "go get");
  // Every module of the graph, so a run's `go test` finds the zip of any package it builds.
  await go(["mod", "download", "all"], "go mod download");
  const goMod = await readFile(join(work, "go.mod"), "utf8");
  const requires = goMod.match(/^require\s*\([\s\S]*?^\)|^require\s+.+$/gm) ?? [];
  const out = join(dir, "go");
  await mkdir(out, { recursive: true });
  await writeFile(join(out, "go.mod.require"), `\n${requires.join("\n")}\n`);
  await writeFile(join(out, "go.sum"), await readFile(join(work, "go.sum"), "utf8").catch(() => ""));
  const listed = await go(["list", "-m", "all"], "go list");
  // The download cache is a module proxy in the file layout; the extracted copies are not needed.
  await rename(join(modcache, "cache", "download"), join(out, "proxy"));
  await seedGoBuildCache(entries, work, out, log, signal);
  return listed
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => line.trim())
    .sort();
}

/**
 * Compiles and vets every importable package of the declared modules once, as a run would, into a
 * build cache the Go run script copies into each job's own (GO_RUN_SCRIPT): without it every run
 * compiles testify, yaml.v3 and the rest from source (5.2 s of CPU per trivial testify test here).
 * Runs with the sandbox's Go settings and `-trimpath` (which the environment's runs use too), so the
 * cache keys do not depend on where the module cache is. A seed that cannot be made only costs time.
 */
async function seedGoBuildCache(
  entries: string[],
  work: string,
  out: string,
  log: Log,
  signal?: AbortSignal,
): Promise<void> {
  const seed = join(out, "build-cache");
  const env = {
    ...GO_ENVIRONMENT_RUN_SETTINGS,
    PATH: `${GO_ROOT}/bin:/usr/lib/go-1.23/bin:${process.env.PATH ?? ""}`,
    GOMODCACHE: join(work, "..", ".go-modcache-seed"),
    GOPATH: join(work, "..", ".go-path"),
    GOCACHE: seed,
    GOPROXY: `file://${join(out, "proxy")}`,
    GOTELEMETRY: "off",
  };
  try {
    await mkdir(seed, { recursive: true });
    await cp(GO_CACHE_SEED, seed, { recursive: true }).catch(() => undefined);
    const modules = entries.map((entry) => entry.slice(0, entry.lastIndexOf("@")));
    const listed = await runTool(
      [
        "go",
        "list",
        "-e",
        "-f",
        '{{if and (ne .Name "main") (not .Incomplete)}}{{.ImportPath}}{{end}}',
        "--",
        ...modules.map((module) => `${module}/...`),
      ],
      { cwd: work, env, log: () => undefined, what: "go list (packages to compile)", signal },
    );
    const packages = listed
      .split("\n")
      .map((line) => line.trim())
      .filter((path) => path !== "" && !/(^|\/)internal(\/|$)/.test(path));
    if (packages.length === 0) return;
    await writeFile(
      join(work, "seed_test.go"),
      `package main\n\nimport (\n\t"testing"\n${packages.map((path) => `\t_ "${path}"`).join("\n")}\n)\n\nfunc TestSeed(t *testing.T) {}\n`,
    );
    await runTool(["go", "test", "-count=1", "."], {
      cwd: work,
      env,
      log,
      what: "go test (the build-cache seed)",
      signal,
    });
    log(`— go: ${packages.length} packages compiled into the build-cache seed`);
  } catch (error) {
    log(
      `— go: no build-cache seed (${error instanceof Error ? error.message : String(error)}); runs compile the modules themselves`,
    );
    await rm(seed, { recursive: true, force: true });
  }
}

/**
 * Maven's own downloads (its plugins, and the jars before they are copied) kept between builds, under
 * the environments folder: checksummed by Maven, never mounted into a run.
 */
const mavenRepository = (dir: string) => join(dirname(dir), "..", ".maven-repository");

async function buildMaven(
  entries: string[],
  dir: string,
  { log, signal, registries }: BuildContext,
): Promise<string[]> {
  const work = join(dir, ".maven");
  await mkdir(work, { recursive: true });
  const dependencies = entries
    .map((entry) => {
      const [group, artifact, version] = entry.split(":");
      return `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version></dependency>`;
    })
    .join("");
  await writeFile(
    join(work, "pom.xml"),
    `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>` +
      `<groupId>verity.env</groupId><artifactId>env</artifactId><version>1</version><packaging>pom</packaging>` +
      `<dependencies>${dependencies}</dependencies></project>\n`,
  );
  const mirror = registries.mavenRepository;
  const settings: string[] = [];
  if (mirror) {
    await writeFile(
      join(work, "settings.xml"),
      `<settings><mirrors><mirror><id>verity-mirror</id><mirrorOf>*</mirrorOf><url>${mirror}</url></mirror></mirrors></settings>\n`,
    );
    settings.push("-s", join(work, "settings.xml"));
  }
  await runTool(
    [
      "mvn",
      "-B",
      "-q",
      ...settings,
      "-f",
      join(work, "pom.xml"),
      `-Dmaven.repo.local=${mavenRepository(dir)}`,
      "dependency:copy-dependencies",
      `-DoutputDirectory=${join(dir, "java")}`,
    ],
    { cwd: work, log, what: "mvn dependency:copy-dependencies", signal },
  );
  return (await readdir(join(dir, "java"))).filter((name) => name.endsWith(".jar")).sort();
}

async function buildDebian(entries: string[], dir: string, { log, signal }: BuildContext): Promise<string[]> {
  const debs = join(dir, ".debs");
  await mkdir(debs, { recursive: true });
  await runTool(["apt-get", "download", "--", ...entries], { cwd: debs, log, what: "apt-get download", signal });
  const files = (await readdir(debs)).filter((name) => name.endsWith(".deb")).sort();
  // Unpacked, never installed: no maintainer script runs and the host's packages stay as they are.
  for (const file of files)
    await runTool(["dpkg-deb", "-x", join(debs, file), join(dir, "debian")], {
      cwd: dir,
      log,
      what: `unpacking ${file}`,
    });
  // name_version_arch.deb, the version's epoch colon written %3a.
  return files.map((file) => {
    const [name, version] = file.replace(/\.deb$/, "").split("_");
    return `${name}=${decodeURIComponent(version ?? "")}`;
  });
}

/** What `cargo build --message-format=json` says of each crate it built (the fields read here). */
type CargoArtifact = {
  reason: string;
  package_id?: string;
  target?: { name: string; kind: string[] };
  filenames?: string[];
};

/** Cargo's name of a registry package: "registry+…#name@version" (cargo ≥ 1.77) or "name version (registry+…)". */
const isPackage = (packageId: string, name: string, version: string) =>
  packageId.endsWith(`#${name}@${version}`) || packageId.startsWith(`${name} ${version} (`);

/**
 * Crates are the one kind whose code runs on the server as it builds: cargo runs their build scripts
 * and procedural macros (docs/security.md). A scratch project depends on exactly the declared
 * versions and is built as sandbox-install.sh builds the reference's crates (the sandbox's rustc,
 * cargo's dev profile, which the Rust recipe's flags match); the libraries go to rust/deps and
 * rust/extern.args names each declared crate for rustc under /env, where a run finds it.
 */
async function buildRust(entries: string[], dir: string, { log, signal, registries }: BuildContext): Promise<string[]> {
  const work = join(dir, ".cargo-work");
  await mkdir(join(work, "src"), { recursive: true });
  const declared = entries.map((entry) => {
    const at = entry.lastIndexOf("@");
    return { name: entry.slice(0, at), version: entry.slice(at + 1) };
  });
  await writeFile(
    join(work, "Cargo.toml"),
    `[package]\nname = "verity-environment"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n` +
      `[lib]\npath = "src/lib.rs"\n\n[dependencies]\n${declared.map(({ name, version }) => `${name} = "=${version}"`).join("\n")}\n`,
  );
  await writeFile(join(work, "src", "lib.rs"), "");
  const mirror = registries.cratesRegistry
    ? [
        "--config",
        'source.crates-io.replace-with="verity-mirror"',
        "--config",
        `source.verity-mirror.registry="${registries.cratesRegistry}"`,
      ]
    : [];
  const env = {
    RUSTC: "/usr/bin/rustc",
    CARGO_HOME: join(dir, ".cargo-home"),
    CARGO_TARGET_DIR: join(dir, ".cargo-target"),
    CARGO_TERM_COLOR: "never",
  };
  const cargo = (args: string[], what: string, quiet = false) =>
    runTool(["/usr/bin/cargo", ...mirror, ...args], {
      cwd: work,
      env,
      log: quiet ? () => undefined : log,
      what,
      signal,
    });
  await cargo(["build"], "cargo build");
  // Built already: this only lists each crate's files, quietly (a JSON line per crate).
  const messages = await cargo(["build", "--frozen", "--message-format=json"], "cargo build (the crates' files)", true);
  const artifacts = messages
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as CargoArtifact)
    .filter((message) => message.reason === "compiler-artifact");
  const deps = join(dir, "rust", "deps");
  await mkdir(deps, { recursive: true });
  const built = join(env.CARGO_TARGET_DIR, "debug", "deps");
  for (const file of await readdir(built))
    if (/\.(rlib|rmeta|so)$/.test(file) && !file.startsWith("libverity_environment-"))
      await cp(join(built, file), join(deps, file));
  const args = ["-L", `dependency=${ENVIRONMENT_MOUNT}/rust/deps`];
  for (const { name, version } of declared) {
    // The crate's library: an rlib, or a procedural macro's shared library (not its build script).
    const library = artifacts
      .filter((message) => message.package_id && isPackage(message.package_id, name, version))
      .map((message) => ({
        crate: message.target?.name,
        file: message.filenames?.find((path) => /\.(rlib|so)$/.test(path)),
      }))
      .find(({ crate, file }) => crate && file);
    if (!library?.crate || !library.file)
      throw new EnvironmentBuildError(`cargo build: no library of ${name} ${version} was built`);
    args.push("--extern", `${library.crate}=${ENVIRONMENT_MOUNT}/rust/deps/${basename(library.file)}`);
  }
  await writeFile(join(dir, "rust", "extern.args"), `${args.join("\n")}\n`);
  const lock = await readFile(join(work, "Cargo.lock"), "utf8");
  return [...lock.matchAll(/^\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"/gm)]
    .filter(([, name]) => name !== "verity-environment")
    .map(([, name, version]) => `${name} ${version}`)
    .sort();
}

const BUILDERS: Readonly<
  Record<EnvironmentKind, (entries: string[], dir: string, context: BuildContext) => Promise<string[]>>
> = { python: buildPython, npm: buildNpm, go: buildGo, maven: buildMaven, debian: buildDebian, rust: buildRust };

/** Bytes under a folder (files only). */
async function folderSize(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Every file readable by the sandbox user, nothing writable by anyone. */
async function makeReadOnly(path: string): Promise<void> {
  for (const entry of await readdir(path, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = join(entry.parentPath, entry.name);
    await chmod(full, entry.isDirectory() ? 0o555 : (await stat(full)).mode & 0o111 ? 0o555 : 0o444);
  }
  await chmod(path, 0o555);
}

/**
 * Builds `spec` into `dir` (created empty; an existing folder of a build that was cut off is
 * removed first). Throws EnvironmentBuildError naming the step and the tool's message.
 */
export async function buildEnvironment({
  spec,
  dir,
  log,
  signal,
  registries = DEFAULT_REGISTRIES,
}: {
  spec: EnvironmentSpec;
  dir: string;
  log: Log;
  signal?: AbortSignal;
  registries?: EnvironmentRegistries;
}): Promise<BuildResult> {
  await removeEnvironmentFolder(dir);
  await mkdir(dir, { recursive: true });
  const lock: EnvironmentLock = {};
  for (const kind of kindsOf(spec)) {
    log(`— ${kind}: ${spec[kind].join(", ")}`);
    lock[kind] = await BUILDERS[kind](spec[kind], dir, { log, signal, registries });
    log(`— ${kind}: ${lock[kind].length} resolved`);
  }
  for (const scratch of [
    ".go-work",
    ".go-modcache",
    ".go-modcache-seed",
    ".go-path",
    ".go-build",
    ".maven",
    ".debs",
    ".cargo-work",
    ".cargo-home",
    ".cargo-target",
  ])
    await rm(join(dir, scratch), { recursive: true, force: true });
  await makeReadOnly(dir);
  return { lock, sizeBytes: await folderSize(dir), javaJars: lock.maven ?? [] };
}

/** Removes an environment folder even though its files are read-only. */
export async function removeEnvironmentFolder(dir: string): Promise<void> {
  const exists = await stat(dir).then(
    () => true,
    () => false,
  );
  if (!exists) return;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isDirectory()) await chmod(join(entry.parentPath, entry.name), 0o755);
  await chmod(dir, 0o755);
  await rm(dir, { recursive: true, force: true });
}
