// Shared by the benchmark scripts: the machine they ran on, and writing their section of docs/benchmarks.md.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";

export type Machine = { cpu: string; cores: number; memory: string; node: string; postgres: string };

export function describeMachine(postgres: string): Machine {
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    postgres,
  };
}

/** `uptime`'s line: the machine is shared, and its load is part of every figure. */
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

/**
 * Replaces the section headed `heading` in docs/benchmarks.md (up to the next heading of the same or a
 * higher level, so a "### " subsection keeps its siblings), or appends it.
 */
export function writeBenchmarkSection(heading: string, section: string, path = resolve("docs/benchmarks.md")): void {
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const lines = current.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const endsSection = new RegExp(`^#{1,${level}} `);
  let next: string;
  if (start === -1) {
    next = `${current.trimEnd()}\n\n${section}`;
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
  if (start === -1) return writeFileSync(path, `${current.trimEnd()}\n\n${parent}\n\n${section.trimEnd()}\n`);
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

/**
 * Chooses the database for the modules a benchmark loads after this call: `databaseUrl` when given,
 * else an embedded server in a folder of the benchmark's own (`dataDir`, on port 54675), so a
 * benchmark never touches the app's database.
 */
export function chooseBenchDatabase(databaseUrl: string | undefined, dataDir: string): void {
  if (databaseUrl) {
    process.env.DATABASE_URL = databaseUrl;
    return;
  }
  process.env.VERITY_DATA_DIR = dataDir;
  // VERITY_BENCH_DB_PORT moves it, so two checkouts' benchmarks on one machine do not collide.
  process.env.VERITY_DB_PORT = process.env.VERITY_BENCH_DB_PORT ?? "54675";
  delete process.env.DATABASE_URL;
}

/**
 * Points the modules a benchmark loads after this call at an embedded PostgreSQL server in a folder
 * of the benchmark's own (`dataDir`), never the app's. VERITY_BENCH_DB_PORT moves it off
 * `defaultPort`, so the benchmarks of two checkouts on one machine do not collide.
 */
export function selectOwnBenchDatabase(dataDir: string, defaultPort: string): void {
  process.env.VERITY_DATA_DIR = dataDir;
  process.env.VERITY_DB_PORT = process.env.VERITY_BENCH_DB_PORT ?? defaultPort;
  delete process.env.DATABASE_URL;
}
