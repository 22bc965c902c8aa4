// Shared by the benchmark scripts: the machine they ran on and its load, their ports and data
// folder, their last line under --json, and writing their section of docs/benchmarks.md.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";

export type Machine = { cpu: string; cores: number; memory: string; node: string; postgres: string };

export function describeMachine(postgres: string): Machine {
  return {
    cpu: cpuModel(),
    cores: cpus().length,
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    postgres,
  };
}

/** The CPU's name as /proc/cpuinfo (or lscpu) gives it; Node's own guess is empty on some virtual machines. */
function cpuModel(): string {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((entry) => /^model name\s*:/.test(entry));
    if (line) return line.slice(line.indexOf(":") + 1).trim();
  } catch {}
  try {
    const line = execFileSync("lscpu", { encoding: "utf8" })
      .split("\n")
      .find((entry) => /^Model name:/.test(entry));
    if (line) return line.slice(line.indexOf(":") + 1).trim();
  } catch {}
  return cpus()[0]?.model || "unknown CPU";
}

/** `uptime`'s line: the load is part of every figure, so each benchmark states the one it measured. */
export function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(", ")}`;
  }
}

export function machineLine(machine: Machine): string {
  return `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM, Node ${machine.node}, PostgreSQL ${machine.postgres}.`;
}

/** The options every benchmark takes besides its own; spread into parseArgs' `options`. */
export const BENCH_OPTIONS = {
  /** the app's port (first instance's, when there are several); VERITY_BENCH_APP_PORT, else a free one */
  "app-port": { type: "string" },
  /** the embedded PostgreSQL's port; VERITY_BENCH_DB_PORT, else a free one */
  "db-port": { type: "string" },
  /** the embedded PostgreSQL's folder; VERITY_BENCH_DATA_DIR, else the benchmark's own default */
  "data-dir": { type: "string" },
  /** print the figures as one JSON object, the last line of standard output */
  json: { type: "boolean", default: false },
} as const;

export type BenchFlags = { "app-port"?: string; "db-port"?: string; "data-dir"?: string; json?: boolean };

/** A port nothing listens on now: the one the kernel picks for a socket bound to port 0, closed again. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolvePort(port) : reject(new Error("no port was given"))));
    });
  });
}

/** A port from a flag, else from the environment variable `envName`, else a free one. */
export async function choosePort(flag: string | undefined, envName: string): Promise<number> {
  const given = flag ?? process.env[envName];
  if (given === undefined || given === "") return freePort();
  const port = Number(given);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${flag === undefined ? envName : "the port flag"} must be a port (1–65535), got ${given}`);
  return port;
}

/** The app's port: --app-port, else VERITY_BENCH_APP_PORT, else a free one. */
export async function chooseAppPort(flags: BenchFlags): Promise<number> {
  const port = await choosePort(flags["app-port"], "VERITY_BENCH_APP_PORT");
  console.error(`App on port ${port}.`);
  return port;
}

/**
 * `count` app ports: the first from --app-port or VERITY_BENCH_APP_PORT (the next ones follow it),
 * else free ones, each different.
 */
export async function chooseAppPorts(flags: BenchFlags, count: number): Promise<number[]> {
  if (flags["app-port"] ?? process.env.VERITY_BENCH_APP_PORT) {
    const first = await chooseAppPort(flags);
    return Array.from({ length: count }, (_, index) => first + index);
  }
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * Points the modules a benchmark loads after this call at an embedded PostgreSQL server of its own,
 * never the app's: in --data-dir, else VERITY_BENCH_DATA_DIR, else `defaultDataDir` (a fresh folder
 * under .data when `fresh`, so two runs of one benchmark never share one), on --db-port, else
 * VERITY_BENCH_DB_PORT, else a free port. Returns the folder and the port.
 */
export async function selectBenchDatabase(
  flags: BenchFlags,
  defaultDataDir: string,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<{ dataDir: string; dbPort: number }> {
  const given = flags["data-dir"] ?? process.env.VERITY_BENCH_DATA_DIR;
  let dataDir = given || defaultDataDir;
  if (!given && fresh) {
    mkdirSync(".data", { recursive: true });
    dataDir = mkdtempSync(`${defaultDataDir}-`);
    // mkdtemp makes it 0700; the embedded server runs as its own user and must reach its folder inside.
    chmodSync(dataDir, 0o755);
  }
  const dbPort = await choosePort(flags["db-port"], "VERITY_BENCH_DB_PORT");
  process.env.VERITY_DATA_DIR = dataDir;
  process.env.VERITY_DB_PORT = String(dbPort);
  delete process.env.DATABASE_URL;
  console.error(`Embedded PostgreSQL in ${dataDir}, port ${dbPort}.`);
  return { dataDir, dbPort };
}

/**
 * Chooses the database for the modules a benchmark loads after this call: `databaseUrl` when given,
 * else an embedded server of the benchmark's own (see selectBenchDatabase).
 */
export async function chooseBenchDatabase(
  databaseUrl: string | undefined,
  flags: BenchFlags,
  defaultDataDir: string,
): Promise<void> {
  if (databaseUrl) {
    process.env.DATABASE_URL = databaseUrl;
    return;
  }
  await selectBenchDatabase(flags, defaultDataDir);
}

/** The machine, and its 1-minute load at the start and at the end of a run. */
export type BenchRun = {
  machine: Omit<Machine, "postgres">;
  load: { before: number; after: number | null };
  /** Prints the load at the end; under --json, then prints `figures` with the machine and load as the last line. */
  finish(figures?: Record<string, unknown>): void;
};

/**
 * Prints the machine and its 1-minute load now (on standard error, so that standard output's last
 * line stays the JSON object under --json); `finish` prints the load at the end. Call first thing.
 */
export function startBenchRun(name: string, flags: BenchFlags): BenchRun {
  const { postgres: _, ...machine } = describeMachine("");
  const run: BenchRun = {
    machine,
    load: { before: oneMinuteLoad(), after: null },
    finish(figures = {}) {
      run.load.after = oneMinuteLoad();
      console.error(`${name}: 1-minute load at the end ${run.load.after.toFixed(2)}.`);
      if (flags.json) console.log(benchJson(name, figures, run));
    },
  };
  console.error(
    `${name}: ${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM, Node ${machine.node}; 1-minute load at the start ${run.load.before.toFixed(2)}.`,
  );
  return run;
}

function oneMinuteLoad(): number {
  return Number(loadavg()[0].toFixed(2));
}

/** The one line --json prints last: the benchmark's figures, then the machine and the load they were measured under. */
export function benchJson(
  name: string,
  figures: Record<string, unknown>,
  { machine, load }: Pick<BenchRun, "machine" | "load">,
): string {
  return JSON.stringify({ benchmark: name, ...figures, machine, load });
}

/** Milliseconds rounded to a tenth, as the JSON figures give them. */
export function ms(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The heading after which docs/benchmarks.md holds one section per issue, added by hand at its end. */
const ISSUE_SECTIONS = "## Issue sections";

/** `section` added to `current` before its issue sections (or at its end when it has none), without a trailing newline. */
function insertBeforeIssueSections(current: string, section: string): string {
  const lines = current.split("\n");
  const at = lines.findIndex((line) => line.trim() === ISSUE_SECTIONS);
  if (at === -1) return `${current.trimEnd()}\n\n${section.trimEnd()}`;
  return [lines.slice(0, at).join("\n").trimEnd(), section.trimEnd(), lines.slice(at).join("\n").trimEnd()].join(
    "\n\n",
  );
}

/**
 * Replaces the section headed `heading` in docs/benchmarks.md (up to the next heading of the same or a
 * higher level, so a "### " subsection keeps its siblings), or adds it before the issue sections.
 */
export function writeBenchmarkSection(heading: string, section: string, path = resolve("docs/benchmarks.md")): void {
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const lines = current.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const endsSection = new RegExp(`^#{1,${level}} `);
  let next: string;
  if (start === -1) {
    next = insertBeforeIssueSections(current, section);
  } else {
    const end = lines.findIndex((line, i) => i > start && endsSection.test(line));
    const before = lines.slice(0, start).join("\n").trimEnd();
    const after = end === -1 ? "" : lines.slice(end).join("\n");
    next = [before, section.trimEnd(), after].filter((part) => part !== "").join("\n\n");
  }
  writeFileSync(path, `${next.trimEnd()}\n`);
}

/**
 * CPU seconds (user + system) of this process's finished children and their descendants, from
 * /proc/self/stat (cutime + cstime, in clock ticks): what the programs a benchmark spawned used.
 */
export function childrenCpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name (which may hold spaces) start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticksPerSecond = 100;
  return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
}

/** The p-th percentile (0–100) of a list of numbers, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Replaces the "### " subsection `heading` of the "## " section `parent` in docs/benchmarks.md; a
 * missing subsection goes at the end of its parent, a missing parent at the end of the file.
 */
export function writeBenchmarkSubsection(
  parent: string,
  heading: string,
  section: string,
  path = resolve("docs/benchmarks.md"),
): void {
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  if (current.split("\n").some((line) => line.trim() === heading)) return writeBenchmarkSection(heading, section, path);
  const lines = current.split("\n");
  const start = lines.findIndex((line) => line.trim() === parent);
  if (start === -1) return writeFileSync(path, `${insertBeforeIssueSections(current, `${parent}\n\n${section}`)}\n`);
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  const before = lines
    .slice(0, end === -1 ? lines.length : end)
    .join("\n")
    .trimEnd();
  const after = end === -1 ? "" : lines.slice(end).join("\n");
  writeFileSync(
    path,
    `${[before, section.trimEnd(), after]
      .filter((part) => part !== "")
      .join("\n\n")
      .trimEnd()}\n`,
  );
}
