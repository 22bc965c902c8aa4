"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import type { Action } from "@/lib/actions/result";

type Log = { status: "BUILDING" | "READY" | "FAILED"; log: string; error: string | null };

/** Terminal colour codes some tools print (pip's warnings): shown as text they are noise. */
const COLOUR_CODES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** How often the log is read while the version builds (the build writes it every 2 s). */
const POLL_MS = 2_000;

/**
 * A building version's log, read every 2 s until the version is ready or failed; then the page
 * reloads its data, which shows the version's outcome.
 */
export function BuildLog({
  dataset,
  version,
  initial,
  inUse,
  readLog,
}: {
  dataset: string;
  version: number;
  initial: Log;
  /** The version the dataset's runs mount (a failed build leaves it as it was). */
  inUse: number | null;
  readLog: Action<{ dataset: string; version: number }, Log>;
}) {
  const router = useRouter();
  const [log, setLog] = useState<Log>(initial);
  const [isUnreachable, setUnreachable] = useState(false);
  const panel = useRef<HTMLPreElement>(null);
  const isBuilding = log.status === "BUILDING";

  useEffect(() => {
    if (!isBuilding) return;
    const timer = setInterval(async () => {
      const result = await readLog({ dataset, version }).catch(() => null);
      setUnreachable(!result?.ok);
      if (!result?.ok) return;
      setLog(result.data);
      if (result.data.status !== "BUILDING") router.refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [isBuilding, dataset, version, readLog, router]);

  // Follow the newest lines, as a terminal does.
  useEffect(() => {
    if (panel.current) panel.current.scrollTop = panel.current.scrollHeight;
  }, [log.log]);

  return (
    <div className="space-y-1">
      <p className="text-sm text-slate-600" aria-live="polite">
        {isBuilding
          ? `Version ${version} is building…`
          : log.status === "READY"
            ? `Version ${version} is ready and in use.`
            : `Version ${version} failed: ${(log.error ?? "no reason given").replace(/\.$/, "")}. ${inUse === null ? "No version is in use: runs see the sandbox's own libraries only." : `Version ${inUse} stays in use.`}`}
        {isUnreachable ? " (The server could not be reached; trying again.)" : null}
      </p>
      <pre
        ref={panel}
        role="log"
        aria-label={`Build log of version ${version}`}
        className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
      >
        {log.log.replace(COLOUR_CODES, "") || "Waiting for the first lines…"}
      </pre>
    </div>
  );
}
