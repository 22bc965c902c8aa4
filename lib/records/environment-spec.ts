import { z } from "zod";

/**
 * A dataset's extra dependencies, each pinned to a version: what an admin declares and Verity builds
 * into a read-only environment mounted into that dataset's runs (lib/server/environments). Names are
 * checked strictly: they reach package managers' command lines, so none may look like an option.
 */
export const ENVIRONMENT_KINDS = ["python", "npm", "go", "maven", "debian", "rust"] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

/** What a build resolved, like a lock file: per kind, the entries it installed ("name version", jar file names). */
export type EnvironmentLock = Partial<Record<EnvironmentKind, string[]>>;

/** How each kind is written, one per line, with an example a form and an error can show. */
export const ENVIRONMENT_KIND_FORMATS: Readonly<Record<EnvironmentKind, { label: string; example: string }>> = {
  python: { label: "Python packages (PyPI wheels)", example: "numpy==1.26.4" },
  npm: { label: "npm packages", example: "js-md5@0.8.3" },
  go: { label: "Go modules", example: "github.com/stretchr/testify@v1.8.0" },
  maven: {
    label: "Maven artifacts (one jar each, no transitive dependencies)",
    example: "com.google.guava:guava:33.3.1-jre",
  },
  debian: {
    label: "Debian packages (each listed, unpacked, no maintainer scripts)",
    example: "libssl-dev=3.0.17-1~deb12u2",
  },
  rust: { label: "Rust crates (crates.io, built with their dependencies)", example: "serde_json@1.0.128" },
};

const VERSION = String.raw`[A-Za-z0-9][A-Za-z0-9.+_~-]*`;

const PATTERNS: Readonly<Record<EnvironmentKind, RegExp>> = {
  python: new RegExp(String.raw`^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?==${VERSION}$`),
  npm: new RegExp(String.raw`^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*@${VERSION}$`),
  go: new RegExp(String.raw`^[a-z0-9][A-Za-z0-9._~/-]*[A-Za-z0-9]@v${VERSION}$`),
  maven: new RegExp(String.raw`^[A-Za-z0-9][A-Za-z0-9._-]*:[A-Za-z0-9][A-Za-z0-9._-]*:${VERSION}$`),
  debian: new RegExp(String.raw`^[a-z0-9][a-z0-9.+-]+=${VERSION}(:${VERSION})?$`),
  // One exact semver version: cargo reads "1.0" or "^1" as a range.
  rust: /^[A-Za-z][A-Za-z0-9_-]{0,63}@\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/,
};

const WHAT_IS_EXPECTED: Readonly<Record<EnvironmentKind, string>> = {
  python: "name==version",
  npm: "name@version",
  go: "module@vX.Y.Z",
  maven: "group:artifact:version",
  debian: "package=version",
  rust: "name@version",
};

function kindList(kind: EnvironmentKind) {
  return z
    .array(z.string().trim())
    .max(200, `at most 200 ${kind} entries`)
    .transform((entries) => entries.filter((entry) => entry !== ""))
    .superRefine((entries, context) => {
      entries.forEach((entry, index) => {
        if (!PATTERNS[kind].test(entry) || entry.length > 200)
          context.addIssue({
            code: "custom",
            path: [index],
            message: `"${entry}" is not ${WHAT_IS_EXPECTED[kind]} (e.g. ${ENVIRONMENT_KIND_FORMATS[kind].example}); every dependency is pinned`,
          });
      });
      const seen = new Set<string>();
      for (const entry of entries) {
        if (seen.has(entry)) context.addIssue({ code: "custom", message: `"${entry}" is listed twice` });
        seen.add(entry);
      }
    });
}

/** A declared environment: per kind, pinned entries. Kinds left out are empty. */
export const environmentSpecSchema = z
  .object(
    Object.fromEntries(ENVIRONMENT_KINDS.map((kind) => [kind, kindList(kind).default([])])) as {
      [K in EnvironmentKind]: z.ZodDefault<ReturnType<typeof kindList>>;
    },
  )
  .strict()
  .refine((spec) => ENVIRONMENT_KINDS.some((kind) => spec[kind].length > 0), {
    message: "declare at least one dependency",
  });

export type EnvironmentSpec = z.infer<typeof environmentSpecSchema>;

/** The kinds a spec uses, in the fixed order. */
export function kindsOf(spec: EnvironmentSpec): EnvironmentKind[] {
  return ENVIRONMENT_KINDS.filter((kind) => spec[kind].length > 0);
}

/** Splits a text area's lines (blank lines and `#` comments dropped). */
export function entriesFromLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "");
}

/** One line per entry, "kind: entry", for logs, the CLI and the release card. */
export function describeSpec(spec: EnvironmentSpec): string {
  return kindsOf(spec)
    .map((kind) => `${kind}: ${spec[kind].join(", ")}`)
    .join("; ");
}
