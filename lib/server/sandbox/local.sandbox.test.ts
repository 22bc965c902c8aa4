import { readdir, readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { createLocalBackend } from "./local";
import { cutMarker } from "./output";

// Real programs under bubblewrap. `npm run sandbox:install` sets this machine up.
const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 512, workDir: null });
const status = await backend.isolation();
const canRun = status.problem === null && status.mode === "bubblewrap";
const hasPython = canRun && (await backend.toolchain("python")).isFound;
const hasCgroup = status.cgroup.kind !== "none";
const whyNot =
  status.problem ??
  (status.mode !== "bubblewrap"
    ? `the sandbox runs in mode ${status.mode}`
    : hasPython
      ? ""
      : "python3 is not installed in the sandbox");
// Leftover processes are counted by the sandbox user, which exists only when the tests run as root.
const whyNoUser = status.user ? "" : "not root, so programs run as this user and leftovers cannot be told apart";
const noUserNote = whyNoUser ? ` (skipped: ${whyNoUser})` : "";

function python(solution: string, timeoutMs = 5_000) {
  return backend.run({ language: "python", solution, test: "", timeoutMs });
}

/** Pids of live processes owned by the sandbox user. */
async function sandboxUserProcesses(): Promise<number[]> {
  const uid = status.user?.uid;
  if (uid === undefined) throw new Error(whyNoUser);
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const text = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
    const match = /^Uid:\s+(\d+)/m.exec(text);
    const state = /^State:\s+(\w)/m.exec(text)?.[1];
    if (match && Number(match[1]) === uid && state !== "Z") pids.push(Number(entry));
  }
  return pids;
}

describe.skipIf(skipWithoutSandbox(whyNot))(`local sandbox isolation${whyNot ? ` (skipped: ${whyNot})` : ""}`, () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.end("hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("cannot connect to a TCP server on the host's 127.0.0.1", async () => {
    const result = await python(
      [
        "import socket",
        "try:",
        `    socket.create_connection(("127.0.0.1", ${port}), timeout=2)`,
        '    print("CONNECTED")',
        "except OSError as error:",
        '    print("BLOCKED", error)',
      ].join("\n"),
    );
    expect(result.stdout).toContain("BLOCKED");
    expect(connections).toBe(0);
  });

  it("does not see the parent's environment, not even through /proc", async () => {
    process.env.VERITY_TEST_SECRET = "s3cret-token-4711";
    const result = await python(
      [
        "import os, glob",
        "print(dict(os.environ))",
        "for path in glob.glob('/proc/*/environ'):",
        "    try:",
        "        print(open(path, 'rb').read())",
        "    except OSError:",
        "        pass",
      ].join("\n"),
    );
    delete process.env.VERITY_TEST_SECRET;
    expect(result.outcome).toBe("PASSED");
    expect(result.stdout).toContain("'HOME': '/job'");
    expect(result.stdout).not.toContain("s3cret-token-4711");
  });

  it("cannot read files under /work or /root", async () => {
    const result = await python(
      [
        "for path in ['/work/main/package.json', '/work', '/root/.bashrc', '/etc/shadow']:",
        "    try:",
        "        open(path).read()",
        "        print('READ', path)",
        "    except OSError as error:",
        "        print('DENIED', path, type(error).__name__)",
      ].join("\n"),
    );
    expect(result.stdout).not.toContain("READ");
    expect(result.stdout.match(/DENIED/g)).toHaveLength(4);
  });

  it("does not see /usr/local (npm's global config, pip's site files, tools installed by hand)", async () => {
    // This host has a /usr/local with npm's global config in it; a run must see neither.
    const onHost = await readdir("/usr/local");
    expect(onHost.length).toBeGreaterThan(0);
    const result = await python(
      [
        "import os",
        "print('LISTED', sorted(os.listdir('/usr/local')))",
        "try:",
        "    open('/usr/local/etc/npmrc').read()",
        "    print('READ npmrc')",
        "except OSError as error:",
        "    print('DENIED npmrc', type(error).__name__)",
        "try:",
        "    open('/usr/local/x', 'w')",
        "    print('WROTE /usr/local/x')",
        "except OSError as error:",
        "    print('DENIED write', type(error).__name__)",
      ].join("\n"),
    );
    expect(result.outcome).toBe("PASSED");
    expect(result.stdout).toContain("LISTED []");
    expect(result.stdout).toContain("DENIED npmrc FileNotFoundError");
    expect(result.stdout).toContain("DENIED write");
  });

  it("cannot write outside its job folder, and its /tmp is private", async () => {
    const marker = `verity-escape-${Date.now()}`;
    const result = await python(
      [
        `for path in ['/usr/${marker}', '/etc/${marker}', '/work/${marker}', '/${marker}', '/tmp/${marker}', '/job/${marker}']:`,
        "    try:",
        "        open(path, 'w').write('x')",
        "        print('WROTE', path)",
        "    except OSError as error:",
        "        print('DENIED', path, type(error).__name__)",
      ].join("\n"),
    );
    expect(result.stdout).toContain(`WROTE /job/${marker}`);
    expect(result.stdout).toContain(`WROTE /tmp/${marker}`);
    expect(result.stdout.match(/DENIED/g)).toHaveLength(4);
    // The sandbox's /tmp is a tmpfs of its own: nothing appears on the host.
    await expect(stat(`/tmp/${marker}`)).rejects.toThrow();
  });

  it("ends an infinite loop as TIME_LIMIT_EXCEEDED within timeout + 1 s", async () => {
    const started = performance.now();
    const result = await python("while True:\n    pass", 2_000);
    const elapsed = performance.now() - started;
    expect(result.outcome).toBe("TIME_LIMIT_EXCEEDED");
    expect(result.limit).toBe("time");
    expect(elapsed).toBeLessThan(3_000);
  });

  it.skipIf(skipWithoutSandbox(whyNoUser))(
    `contains a fork bomb and leaves no process behind${noUserNote}`,
    async () => {
      const started = performance.now();
      const result = await backend.run({
        language: "shell",
        solution: "bomb() { bomb | bomb & }; bomb",
        test: "sleep 10",
        timeoutMs: 3_000,
      });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(result.outcome).not.toBe("PASSED");
      expect(await sandboxUserProcesses()).toEqual([]);
    },
  );

  it.skipIf(!hasCgroup)(
    `stops a 2 GB allocation with limit "memory"${hasCgroup ? "" : ` (skipped: no writable cgroup: ${status.cgroup.kind === "none" ? status.cgroup.reason : ""})`}`,
    async () => {
      const result = await python("data = b'x' * (2 * 1024 ** 3)\nprint(len(data))", 20_000);
      expect(result.outcome).not.toBe("PASSED");
      expect(result.limit).toBe("memory");
      expect(result.memoryKb).toBeGreaterThan(400 * 1024);
    },
  );

  it("keeps the first and last half MiB of 100 MB of output and keeps draining the rest", async () => {
    const result = await python(
      "import sys\nchunk = 'x' * (1024 * 1024)\nfor _ in range(100):\n    sys.stdout.write(chunk)\nprint('end')\nprint('done', file=sys.stderr)",
      20_000,
    );
    expect(result.outcome).toBe("PASSED");
    expect(result.stdout.replace(cutMarker(99 * 1024 * 1024 + 4), "")).toBe(`${"x".repeat(1024 * 1024 - 4)}end\n`);
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderr.trim()).toBe("done");
    expect(result.limit).toBe("output");
  });

  it.skipIf(skipWithoutSandbox(whyNoUser))(
    `leaves no process alive after a run that daemonises a child${noUserNote}`,
    async () => {
      const result = await backend.run({
        language: "shell",
        solution: "setsid nohup sleep 300 >/dev/null 2>&1 &\n( sleep 300 & ) ",
        test: "echo started",
        timeoutMs: 5_000,
      });
      expect(result.stdout).toContain("started");
      expect(await sandboxUserProcesses()).toEqual([]);
    },
  );

  it("runs programs as an unprivileged user without capabilities", async () => {
    const result = await python("import os\nprint(os.getuid())\nprint(open('/proc/self/status').read())");
    expect(Number(result.stdout.split("\n")[0])).not.toBe(0);
    expect(result.stdout).toMatch(/CapEff:\s+0000000000000000/);
  });
});
