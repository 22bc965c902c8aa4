import "server-only";

import { LANGUAGES } from "@/lib/records/languages";
import { assertCan } from "@/lib/server/auth/guard";
import type { Actor } from "@/lib/server/auth/permissions";
import { checkQueue, type QueueHealth } from "@/lib/server/db/health";
import { listWorkers, type WorkerRow } from "@/lib/server/workers/heartbeats";
import { VERIFY_QUEUE } from "@/lib/server/verification/jobs";
import { DEAD_AFTER_MS } from "@/lib/server/workers/workers";

import { languageAvailability, lastProbeAt, probeAgain } from "@/lib/server/sandbox/availability";
import { describeCgroupMode } from "@/lib/server/sandbox/cgroup";
import { describeJobFolderMode } from "@/lib/server/sandbox/job-folder";
import { getSandboxRouter, type SandboxFailure, type SandboxRouter } from "@/lib/server/sandbox";
import { readInstalledExtras } from "@/lib/server/sandbox/installed";
import {
  compareWithReference,
  type ReferenceComparison,
  withInstalledExtras,
} from "@/lib/server/sandbox/reference-versions";
import type { BackendName, SandboxLanguage } from "@/lib/server/sandbox/types";

type LanguageStatus = {
  language: SandboxLanguage;
  backend: BackendName;
  available: boolean;
  /** Why it cannot run (operator detail: admins only). */
  reason: string | null;
  /** The local toolchain's version line; null when it is not local or cannot run. */
  version: string | null;
  reference: ReferenceComparison;
};

export type SandboxStatus = {
  isolation: {
    mode: "bubblewrap" | "unsafe" | "refused";
    user: string | null;
    cgroup: string;
    /** How a run's job folder is size-limited, in words. */
    jobFolder: string;
    problem: string | null;
  };
  languages: LanguageStatus[];
  load: { running: number; queued: number; slots: number };
  lastProbeAt: Date | null;
  recentFailures: readonly SandboxFailure[];
};

/** Everything the admin status page shows: availability as every instance sees it, the rest of this one. */
export async function collectSandboxStatus(router: SandboxRouter = getSandboxRouter()): Promise<SandboxStatus> {
  const [isolation, availability, extras] = await Promise.all([
    router.local.isolation(),
    languageAvailability(router),
    readInstalledExtras(),
  ]);
  const languages = await Promise.all(
    LANGUAGES.map(async (language): Promise<LanguageStatus> => {
      const status = availability[language];
      const isLocal = status.backend === "local" && status.available;
      const version = isLocal ? await router.local.toolchainVersion(language) : null;
      return {
        language,
        backend: status.backend,
        available: status.available,
        reason: status.reason ?? null,
        version,
        reference: withInstalledExtras(language, compareWithReference(language, version), extras),
      };
    }),
  );
  return {
    isolation: {
      mode: isolation.mode,
      user: isolation.user?.name ?? null,
      cgroup: describeCgroupMode(isolation.cgroup),
      jobFolder: describeJobFolderMode(isolation.jobFolder),
      problem: isolation.problem,
    },
    languages,
    load: router.local.load(),
    lastProbeAt: await lastProbeAt(),
    recentFailures: router.recentFailures(),
  };
}

/** The sandbox status page's data, with the verification workers and their queue. Scope: sandbox:admin. */
export async function getSandboxStatus({
  actor,
}: {
  actor: Actor;
}): Promise<SandboxStatus & { workers: WorkerRow[]; queue: QueueHealth }> {
  assertCan(actor, "sandbox:admin");
  const [status, workers, queue] = await Promise.all([
    collectSandboxStatus(),
    listWorkers(DEAD_AFTER_MS),
    checkQueue({ queue: VERIFY_QUEUE, deadAfterMs: DEAD_AFTER_MS }),
  ]);
  return { ...status, workers, queue };
}

/** "Check again": forgets the stored and cached probes and probes afresh, for every instance. Scope: sandbox:admin. */
export async function recheckSandbox({ actor }: { actor: Actor }): Promise<void> {
  assertCan(actor, "sandbox:admin");
  await probeAgain();
}

export type SandboxHealth = {
  ok: boolean;
  isolation: "bubblewrap" | "unsafe" | "refused";
  available: SandboxLanguage[];
  unavailable: SandboxLanguage[];
  running: number;
  queued: number;
  slots: number;
};

/**
 * The unauthenticated health check's summary: which languages can run and how busy the sandbox is.
 * No reasons, paths, versions or failure messages: those tell an attacker what the host runs and
 * stay on the admin page.
 */
export async function sandboxHealth(router: SandboxRouter = getSandboxRouter()): Promise<SandboxHealth> {
  const [isolation, availability] = await Promise.all([router.local.isolation(), languageAvailability(router)]);
  const entries = Object.entries(availability) as [SandboxLanguage, { available: boolean }][];
  const available = entries.filter(([, status]) => status.available).map(([language]) => language);
  return {
    ok: available.length > 0,
    isolation: isolation.mode,
    available,
    unavailable: entries.filter(([, status]) => !status.available).map(([language]) => language),
    ...router.local.load(),
  };
}
