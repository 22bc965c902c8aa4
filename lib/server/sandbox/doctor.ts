import "server-only";

import { LANGUAGES } from "@/lib/records/languages";

import { describeCgroupMode } from "./cgroup";
import { describeJobFolderMode } from "./job-folder";
import type { SandboxRouter } from "./index";
import { firstLine } from "./output";
import { getRecipe } from "./recipes";
import { readInstalledExtras } from "./installed";
import { compareLibraries, type LibraryComparison, REFERENCE_LIBRARIES } from "./reference-libraries";
import { compareWithReference, type ReferenceComparison, withInstalledExtras } from "./reference-versions";
import type { BackendName, Outcome, SandboxLanguage } from "./types";

type IsolationReport = {
  mode: "bubblewrap" | "unsafe" | "refused";
  bwrapPath: string | null;
  prlimitPath: string | null;
  /** The user programs run as (null: the current user, when not root). */
  user: string | null;
  /** True when a program really ran inside the sandbox as an unprivileged user. */
  works: boolean;
  detail: string | null;
  cgroupMode: "v2" | "v1" | "none";
  cgroup: string;
  /** How a job folder's size is capped, in words. */
  jobFolder: string;
};

export type LanguageReport = {
  language: SandboxLanguage;
  backend: BackendName;
  toolchainFound: boolean;
  missing: string[];
  /** The hello program PASSED inside the sandbox; null when it was not tried. */
  works: boolean | null;
  outcome: Outcome | null;
  version: string | null;
  /** The local version next to the reference image's, and whether they differ. */
  reference: ReferenceComparison;
  /** The reference image's libraries for this language, each as found inside the sandbox. */
  libraries: LibraryComparison[];
  detail: string | null;
};

export { firstLine } from "./output";

export type DoctorReport = { isolation: IsolationReport; languages: LanguageReport[] };

async function checkIsolation(router: SandboxRouter): Promise<IsolationReport> {
  // The probe itself runs a program through the isolation and checks what it printed.
  const status = await router.local.isolation({ isRecheck: true });
  return {
    mode: status.mode,
    bwrapPath: status.bwrapPath,
    prlimitPath: status.prlimitPath,
    user: status.user?.name ?? null,
    works: status.problem === null,
    detail: status.problem ?? `programs run as uid ${status.programUid}`,
    cgroupMode: status.cgroup.kind,
    cgroup: describeCgroupMode(status.cgroup),
    jobFolder: describeJobFolderMode(status.jobFolder),
  };
}

async function checkLanguage(
  router: SandboxRouter,
  language: SandboxLanguage,
  canRun: boolean,
): Promise<LanguageReport> {
  const recipe = getRecipe(language);
  const backend = router.backendFor(language);
  const toolchain = await router.local.toolchain(language);
  const report: LanguageReport = {
    language,
    backend,
    toolchainFound: toolchain.isFound,
    missing: toolchain.missing,
    works: null,
    outcome: null,
    version: null,
    reference: compareWithReference(language, null),
    libraries: [],
    detail: toolchain.isFound ? null : `not found: ${toolchain.missing.join(", ")}`,
  };
  if (!toolchain.isFound || !canRun) return report;
  try {
    const version = await router.local.runCommand(recipe.toolchain.version, { timeoutMs: 30_000, env: recipe.env });
    const versionOutput = `${version.stdout}\n${version.stderr}`;
    report.version = firstLine(versionOutput);
    report.reference = withInstalledExtras(
      language,
      compareWithReference(language, versionOutput),
      await readInstalledExtras(),
    );
    // Generous timeout: first runs warm caches (JVM class data, Go build cache).
    const hello = await router.local.run({ language, ...recipe.hello, timeoutMs: 30_000 });
    report.outcome = hello.outcome;
    report.works = hello.outcome === "PASSED";
    report.libraries = await checkLibraries(router, language);
    if (!report.works) report.detail = (hello.stderr || hello.compileOutput || hello.stdout).trim().slice(0, 300);
  } catch (error) {
    report.works = false;
    report.detail = (error as Error).message;
  }
  return report;
}

/** The reference image's libraries of a language as its programs see them (an empty list for most languages). */
async function checkLibraries(router: SandboxRouter, language: SandboxLanguage): Promise<LibraryComparison[]> {
  const probe = REFERENCE_LIBRARIES[language];
  if (!probe) return [];
  const run = await router.local.runCommand(probe.argv, { timeoutMs: 60_000, env: getRecipe(language).env });
  return compareLibraries(language, run.stdout);
}

/** Checks isolation and, per language, the toolchain inside the sandbox (runs a hello program). */
export async function runDoctor(
  router: SandboxRouter,
  options: { languages?: readonly SandboxLanguage[]; onLanguage?: (report: LanguageReport) => void } = {},
): Promise<DoctorReport> {
  const isolation = await checkIsolation(router);
  const languages: LanguageReport[] = [];
  for (const language of options.languages ?? LANGUAGES) {
    const report = await checkLanguage(router, language, isolation.works);
    options.onLanguage?.(report);
    languages.push(report);
  }
  return { isolation, languages };
}
