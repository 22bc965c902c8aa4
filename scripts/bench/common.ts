// Shared by the benchmark scripts: the machine they ran on, and writing their section of docs/benchmarks.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { resolve } from "node:path";

export type Machine = { cpu: string; cores: number; memory: string; node: string; postgres: string };

export function describeMachine(postgres: string): Machine {
  return { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`, node: process.version, postgres };
}

export function machineLine(machine: Machine): string {
  return `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM, Node ${machine.node}, PostgreSQL ${machine.postgres}.`;
}

/** Replaces the section headed `heading` in docs/benchmarks.md (up to the next "## " heading), or appends it. */
export function writeBenchmarkSection(heading: string, section: string, path = resolve("docs/benchmarks.md")): void {
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const lines = current.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  let next: string;
  if (start === -1) {
    next = `${current.trimEnd()}\n\n${section}`;
  } else {
    const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
    const before = lines.slice(0, start).join("\n").trimEnd();
    const after = end === -1 ? "" : lines.slice(end).join("\n");
    next = [before, section.trimEnd(), after].filter((part) => part !== "").join("\n\n");
  }
  writeFileSync(path, `${next.trimEnd()}\n`);
}

/** The p-th percentile (0–100) of a list of numbers, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
