import type { Language } from "@/lib/records/languages";

import type { VersionSkew } from "./reference-versions";

/**
 * The libraries the reference AutoCodeBench image ships beside its toolchains
 * (MultiLanguageSandbox/Dockerfile and Dockerfile_base): Python's `pip install` list, the C++
 * sandbox's `apt-get install` (Ubuntu 22.04's packages), bc and jq, and the Java class path. Per
 * language, one command run inside the sandbox prints what it finds as `key=value` lines, and each
 * library reads its version from them. Plain data and pure functions, no server imports.
 */
type LibrarySpec = {
  name: string;
  /** The reference image's version; null where it installs whatever was current (pip, unpinned). */
  reference: string | null;
  /** The local version from the probe's `key=value` facts, or null when the library is missing. */
  read: (facts: ReadonlyMap<string, string>) => string | null;
};

type LibraryProbe = { argv: readonly string[]; libraries: readonly LibrarySpec[] };

// The pip list's libraries a record may import (the image's own server's flask, gunicorn and
// clickhouse-driver are installed too, as there).
const PYTHON_DISTRIBUTIONS = [
  "numpy",
  "scipy",
  "pandas",
  "scikit-learn",
  "opencv-python-headless",
  "pyarrow",
  "pytest",
  "statsmodels",
  "pillow",
  "lxml",
  "beautifulsoup4",
  "requests",
  "psutil",
  "PyYAML",
  "flask",
] as const;

const PYTHON_PROBE = [
  "import importlib.metadata as metadata",
  `for name in ${JSON.stringify(PYTHON_DISTRIBUTIONS)}:`,
  "    try:",
  "        print(name + '=' + metadata.version(name))",
  "    except metadata.PackageNotFoundError:",
  "        pass",
].join("\n");

/** A C++ library: the header g++ must find and the macros that hold its version. */
type CppLibrary = {
  name: string;
  reference: string;
  header: string;
  version: (macro: (name: string) => string | null) => string | null;
};

const joined = (...parts: (string | null)[]) => (parts.every((part) => part) ? parts.join(".") : null);
const unquoted = (value: string | null) => value?.replace(/^"|"$/g, "") || null;

// Ubuntu 22.04's versions of the image's `apt-get install` for the cpp sandbox.
const CPP_LIBRARIES: readonly CppLibrary[] = [
  {
    name: "Boost",
    reference: "1.74.0",
    header: "boost/version.hpp",
    version: (macro) => {
      const value = Number(macro("BOOST_VERSION"));
      return Number.isFinite(value) && value > 0
        ? `${Math.floor(value / 100_000)}.${Math.floor(value / 100) % 1000}.${value % 100}`
        : null;
    },
  },
  {
    name: "Eigen",
    reference: "3.4.0",
    header: "eigen3/Eigen/Core",
    version: (macro) =>
      joined(macro("EIGEN_WORLD_VERSION"), macro("EIGEN_MAJOR_VERSION"), macro("EIGEN_MINOR_VERSION")),
  },
  {
    name: "nlohmann-json",
    reference: "3.10.5",
    header: "nlohmann/json.hpp",
    version: (macro) =>
      joined(
        macro("NLOHMANN_JSON_VERSION_MAJOR"),
        macro("NLOHMANN_JSON_VERSION_MINOR"),
        macro("NLOHMANN_JSON_VERSION_PATCH"),
      ),
  },
  {
    name: "OpenSSL (-lssl -lcrypto)",
    reference: "3.0.2",
    header: "openssl/opensslv.h",
    version: (macro) => unquoted(macro("OPENSSL_VERSION_STR")),
  },
  {
    name: "GMP",
    reference: "6.2.1",
    header: "gmp.h",
    version: (macro) =>
      joined(macro("__GNU_MP_VERSION"), macro("__GNU_MP_VERSION_MINOR"), macro("__GNU_MP_VERSION_PATCHLEVEL")),
  },
  { name: "SQLite", reference: "3.37.2", header: "sqlite3.h", version: (macro) => unquoted(macro("SQLITE_VERSION")) },
  { name: "zlib", reference: "1.2.11", header: "zlib.h", version: (macro) => unquoted(macro("ZLIB_VERSION")) },
  {
    name: "JsonCpp",
    reference: "1.9.5",
    // Debian and Ubuntu both put it under jsoncpp/: `#include <json/json.h>` needs -I/usr/include/jsoncpp there too.
    header: "jsoncpp/json/version.h",
    version: (macro) => unquoted(macro("JSONCPP_VERSION_STRING")),
  },
  {
    name: "libsodium",
    reference: "1.0.18",
    header: "sodium/version.h",
    version: (macro) => unquoted(macro("SODIUM_VERSION_STRING")),
  },
  {
    name: "Crypto++",
    reference: "8.6.0",
    header: "crypto++/config_ver.h",
    version: (macro) => {
      const value = Number(macro("CRYPTOPP_VERSION"));
      return Number.isFinite(value) && value > 0
        ? `${Math.floor(value / 100)}.${Math.floor(value / 10) % 10}.${value % 10}`
        : null;
    },
  },
  { name: "GSL", reference: "2.7.1", header: "gsl/gsl_version.h", version: (macro) => unquoted(macro("GSL_VERSION")) },
  {
    name: "GoogleTest",
    reference: "1.11.0",
    header: "gtest/gtest.h",
    // GoogleTest has no version macro: its header guard says it is there.
    version: (macro) => (macro("GOOGLETEST_INCLUDE_GTEST_GTEST_H_") !== null ? "installed" : null),
  },
];

const CPP_MACROS = [
  "BOOST_VERSION",
  "EIGEN_WORLD_VERSION",
  "EIGEN_MAJOR_VERSION",
  "EIGEN_MINOR_VERSION",
  "NLOHMANN_JSON_VERSION_MAJOR",
  "NLOHMANN_JSON_VERSION_MINOR",
  "NLOHMANN_JSON_VERSION_PATCH",
  "OPENSSL_VERSION_STR",
  "__GNU_MP_VERSION",
  "__GNU_MP_VERSION_MINOR",
  "__GNU_MP_VERSION_PATCHLEVEL",
  "SQLITE_VERSION",
  "ZLIB_VERSION",
  "JSONCPP_VERSION_STRING",
  "SODIUM_VERSION_STRING",
  "CRYPTOPP_VERSION",
  "GSL_VERSION",
  "GOOGLETEST_INCLUDE_GTEST_GTEST_H_",
];

// g++ preprocesses each header alone (a missing one prints nothing) and prints its version macros.
const CPP_PROBE = [
  `for header in ${CPP_LIBRARIES.map((library) => library.header).join(" ")}; do`,
  `  g++ -std=c++17 -E -dM -x c++ -include "$header" /dev/null 2>/dev/null`,
  `done | sed -nE 's/^#define (${CPP_MACROS.join("|")}) (.*)$/\\1=\\2/p'`,
].join("\n");

const numberIn = (text: string | undefined) => (text ? (/(\d+(?:\.\d+)+)/.exec(text)?.[1] ?? null) : null);
const jarVersion = (path: string | undefined) => (path ? (/-(\d[\w.]*)\.jar$/.exec(path)?.[1] ?? null) : null);

export const REFERENCE_LIBRARIES: Partial<Readonly<Record<Language, LibraryProbe>>> = {
  python: {
    argv: ["python3", "-c", PYTHON_PROBE],
    libraries: PYTHON_DISTRIBUTIONS.map((name) => ({
      name,
      reference: null,
      read: (facts) => facts.get(name) || null,
    })),
  },
  cpp: {
    argv: ["bash", "-c", CPP_PROBE],
    libraries: CPP_LIBRARIES.map((library) => ({
      name: library.name,
      reference: library.reference,
      read: (facts) => library.version((macro) => facts.get(macro) ?? null),
    })),
  },
  shell: {
    argv: ["bash", "-c", 'echo "bc=$(bc --version 2>/dev/null | head -1)"; echo "jq=$(jq --version 2>/dev/null)"'],
    libraries: [
      { name: "bc", reference: "1.07.1", read: (facts) => numberIn(facts.get("bc")) },
      { name: "jq", reference: "1.6", read: (facts) => numberIn(facts.get("jq")) },
    ],
  },
  java: {
    // The jars the Java recipe's class path names, as installed (Maven Central's or Debian's).
    argv: ["bash", "-c", 'for jar in json gson; do echo "$jar=$(readlink -f /opt/verity/java/$jar.jar)"; done'],
    libraries: [
      { name: "org.json", reference: "20241224", read: (facts) => jarVersion(facts.get("json")) },
      { name: "Gson", reference: "2.11.0", read: (facts) => jarVersion(facts.get("gson")) },
    ],
  },
};

export type LibraryComparison = {
  name: string;
  /** The version inside the sandbox, or null when the library is missing there. */
  local: string | null;
  /** The reference image's version, or how it installs the library when it pins none. */
  reference: string;
  skew: VersionSkew | "missing";
};

/** Parses a probe's `key=value` lines (a value may be empty: a macro defined as nothing). */
function parseFacts(output: string): Map<string, string> {
  const facts = new Map<string, string>();
  for (const line of output.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) facts.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return facts;
}

function skewOf(local: string, reference: string): VersionSkew {
  // The same minor release counts as the same library (3.0.2 and 3.0.19 are both OpenSSL 3.0).
  const parts = (version: string) =>
    version
      .split(".")
      .slice(0, 2)
      .map((part) => Number.parseInt(part, 10));
  const [have, want] = [parts(local), parts(reference)];
  if (have.some(Number.isNaN) || want.some(Number.isNaN)) return "unknown";
  for (let index = 0; index < Math.max(have.length, want.length); index++) {
    const [a, b] = [have[index] ?? 0, want[index] ?? 0];
    if (a < b) return "older";
    if (a > b) return "newer";
  }
  return "same";
}

/** Each of a language's reference libraries against what its probe found in the sandbox (pure). */
export function compareLibraries(language: Language, probeOutput: string): LibraryComparison[] {
  const probe = REFERENCE_LIBRARIES[language];
  if (!probe) return [];
  const facts = parseFacts(probeOutput);
  return probe.libraries.map((library) => {
    const local = library.read(facts);
    const reference = library.reference ?? "not pinned (pip, mid-2025)";
    if (local === null) return { name: library.name, local, reference, skew: "missing" };
    return {
      name: library.name,
      local,
      reference,
      skew: library.reference === null ? "unknown" : skewOf(local, library.reference),
    };
  });
}
