import { readdir, readFile } from "node:fs/promises";

/**
 * Pids whose command line is exactly `argv` and that are alive (not zombies waiting to be reaped).
 * Tests that kill a run look its unique command up here to prove nothing was left behind.
 */
export async function processesRunning(argv: string[]): Promise<number[]> {
  const wanted = `${argv.join("\0")}\0`;
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    const state = /^State:\s+(\w)/m.exec(await readFile(`/proc/${entry}/status`, "utf8").catch(() => ""))?.[1];
    if (cmdline === wanted && state && state !== "Z") found.push(Number(entry));
  }
  return found;
}
