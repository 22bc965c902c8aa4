import type { Language } from "@/lib/records/languages";

/**
 * The toolchains of the reference AutoCodeBench sandbox image, which produced the outcomes records
 * were generated and validated against. Facts from its published source (PATH in env.py: Node
 * 18.20.8, the py311 conda environment; the Java launcher command: JUnit console) and its image;
 * "current" means the image installs the release of the day; "unknown" that nothing says which.
 * Plain data, no server imports, so an admin page can show it too.
 */
export type ReferenceVersion =
  | {
      kind: "pinned";
      label: string;
      version: string;
      /** How much of the version must agree: Node 18.x matches 18, Go 1.24.x must be 1.24. */
      compare: "major" | "minor";
      /** Where the version sits in the local version output when not the first number in it. */
      pattern?: RegExp;
    }
  | { kind: "current"; label: string }
  | { kind: "unknown"; label: string };

const pinned = (label: string, version: string, compare: "major" | "minor", pattern?: RegExp): ReferenceVersion => ({
  kind: "pinned",
  label,
  version,
  compare,
  pattern,
});

export const REFERENCE_VERSIONS: Readonly<Record<Language, ReferenceVersion>> = {
  python: pinned("Python 3.11", "3.11", "minor"),
  cpp: { kind: "unknown", label: "g++ (version not published)" },
  java: pinned("OpenJDK 17, JUnit console 1.11.4, org.json, Gson 2.11", "17", "major"),
  javascript: pinned("Node 18.20.8", "18.20.8", "major"),
  go: pinned("Go 1.24.5", "1.24.5", "minor"),
  shell: { kind: "unknown", label: "bash (version not published)" },
  csharp: pinned(".NET 8", "8", "major"),
  dart: { kind: "current", label: "current Dart" },
  elixir: { kind: "unknown", label: "Elixir (version not published)" },
  julia: pinned("Julia 1.10.4", "1.10.4", "minor"),
  kotlin: pinned("Kotlin 1.9.24", "1.9.24", "minor"),
  perl: { kind: "unknown", label: "Perl 5 (version not published)" },
  php: { kind: "unknown", label: "PHP (version not published)" },
  racket: { kind: "unknown", label: "Racket (version not published)" },
  r: { kind: "unknown", label: "R (version not published)" },
  ruby: { kind: "unknown", label: "Ruby (version not published)" },
  rust: { kind: "current", label: "current stable Rust, crates rand 0.4, regex 1, md5 0.7.0" },
  scala: pinned("Scala 3.3.6 (scripts run by Ammonite 3.0.1)", "3.3.6", "minor"),
  swift: pinned("Swift 5.9.2", "5.9.2", "minor"),
  // tsx prints its own version first, then Node's; the runtime is what matters.
  typescript: pinned("Node 18.20.8 (tsx)", "18.20.8", "major", /node v(\d+(?:\.\d+)*)/),
};

/**
 * The reference image runs in China Standard Time (UTC+8): a Racket case that formats times with
 * the local zone (`seconds->date`) fails there and passes under UTC, and the recorded outcome is
 * the failure. Sandboxed programs get this zone so that local-time code behaves as it did there.
 */
export const REFERENCE_TIME_ZONE = "Asia/Shanghai";

/** How a local toolchain stands against the reference: `older`/`newer` are skew worth a look. */
export type VersionSkew = "same" | "older" | "newer" | "unknown";

export type ReferenceComparison = {
  reference: string;
  local: string | null;
  skew: VersionSkew;
  /** What else differs from the reference (a library the install fell back on), in one sentence. */
  note?: string;
};

/**
 * What the install put beside a toolchain where the reference's outcomes depend on it: the real
 * path of the JUnit console jar the Java recipe runs, the Rust crates' `--extern` arguments. Read
 * from the host by doctor and the status page; null when the file is not there.
 */
export type InstalledExtras = { junitConsoleJar: string | null; rustExternArgs: string | null };

const REFERENCE_JUNIT_CONSOLE = "1.11";
const REFERENCE_CRATES = ["rand", "regex", "md5"] as const;

/**
 * A language's comparison with what the install fell back on taken into account (pure): Debian's
 * JUnit console instead of 1.11.4 makes Java older than the reference, a Rust without the prebuilt
 * crates is older too (records that use them fail to build), each with a note saying so.
 */
export function withInstalledExtras(
  language: Language,
  comparison: ReferenceComparison,
  extras: InstalledExtras,
): ReferenceComparison {
  if (language === "java" && extras.junitConsoleJar !== null) {
    const version = /-(\d+\.\d+)\.\d+\.jar$/.exec(extras.junitConsoleJar)?.[1] ?? null;
    if (version === REFERENCE_JUNIT_CONSOLE) return comparison;
    return {
      ...comparison,
      skew: "older",
      note: `JUnit console ${version ?? "of Debian's junit5"} (${extras.junitConsoleJar}), not the reference's 1.11.4 with org.json and Gson: a registry was unreachable at install`,
    };
  }
  if (language === "rust") {
    const missing = REFERENCE_CRATES.filter(
      (crate) => !new RegExp(`^${crate}=`, "m").test(extras.rustExternArgs ?? ""),
    );
    if (missing.length === 0) return comparison;
    return {
      ...comparison,
      skew: "older",
      note: `no prebuilt crates ${missing.join(", ")}: records that use them fail to build here (crates.io was unreachable at install)`,
    };
  }
  return comparison;
}

/** The version number in a toolchain's version output (e.g. "go1.23.5" → "1.23.5"), or null. */
export function parseVersion(output: string, pattern?: RegExp): string | null {
  if (pattern) return pattern.exec(output)?.[1] ?? null;
  return /(\d+(?:\.\d+)+)/.exec(output)?.[1] ?? /\b(\d+)\b/.exec(output)?.[1] ?? null;
}

function numbers(version: string, count: number): number[] {
  return version
    .split(".")
    .slice(0, count)
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** Compares a language's local version output with the reference image's toolchain (pure). */
export function compareWithReference(language: Language, versionOutput: string | null): ReferenceComparison {
  const reference = REFERENCE_VERSIONS[language];
  const local =
    versionOutput === null
      ? null
      : parseVersion(versionOutput, reference.kind === "pinned" ? reference.pattern : undefined);
  if (reference.kind !== "pinned" || local === null) return { reference: reference.label, local, skew: "unknown" };
  const count = reference.compare === "major" ? 1 : 2;
  const [want, have] = [numbers(reference.version, count), numbers(local, count)];
  for (let index = 0; index < count; index++) {
    const [a, b] = [have[index] ?? 0, want[index] ?? 0];
    if (a < b) return { reference: reference.label, local, skew: "older" };
    if (a > b) return { reference: reference.label, local, skew: "newer" };
  }
  return { reference: reference.label, local, skew: "same" };
}
