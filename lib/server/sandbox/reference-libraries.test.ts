import { describe, expect, it } from "vitest";

import { compareLibraries } from "./reference-libraries";

// What the C++ probe printed inside the sandbox on Debian 12 (trimmed to four libraries' macros).
const CPP_PROBE_OUTPUT = [
  "BOOST_VERSION=107400",
  "EIGEN_MAJOR_VERSION=4",
  "EIGEN_MINOR_VERSION=0",
  "EIGEN_WORLD_VERSION=3",
  "NLOHMANN_JSON_VERSION_MINOR=11",
  "NLOHMANN_JSON_VERSION_MAJOR=3",
  "NLOHMANN_JSON_VERSION_PATCH=2",
  'OPENSSL_VERSION_STR="3.0.22"',
  "CRYPTOPP_VERSION=870",
  "GOOGLETEST_INCLUDE_GTEST_GTEST_H_=",
  "",
].join("\n");

describe("compareLibraries", () => {
  it("reads each C++ library's version from its macros and compares it with Ubuntu 22.04's", () => {
    const byName = new Map(compareLibraries("cpp", CPP_PROBE_OUTPUT).map((library) => [library.name, library]));
    expect(byName.get("Boost")).toEqual({ name: "Boost", local: "1.74.0", reference: "1.74.0", skew: "same" });
    expect(byName.get("Eigen")?.local).toBe("3.4.0");
    expect(byName.get("nlohmann-json")).toMatchObject({ local: "3.11.2", reference: "3.10.5", skew: "newer" });
    // The same minor release is the same library.
    expect(byName.get("OpenSSL (-lssl -lcrypto)")).toMatchObject({ local: "3.0.22", skew: "same" });
    expect(byName.get("Crypto++")).toMatchObject({ local: "8.7.0", skew: "newer" });
    // A header guard defined as nothing still says the header is there.
    expect(byName.get("GoogleTest")).toMatchObject({ local: "installed", skew: "unknown" });
    // Macros the probe did not print: the header was not found.
    expect(byName.get("SQLite")).toMatchObject({ local: null, skew: "missing" });
  });

  it("reports Python libraries the image does not pin as unknown skew, and absent ones as missing", () => {
    const libraries = compareLibraries("python", "numpy=2.2.6\npandas=2.3.1\n");
    expect(libraries.find((library) => library.name === "numpy")).toMatchObject({ local: "2.2.6", skew: "unknown" });
    expect(libraries.find((library) => library.name === "scipy")).toMatchObject({ local: null, skew: "missing" });
  });

  it("reads bc and jq from their version lines, and the Java jars from their file names", () => {
    expect(compareLibraries("shell", "bc=bc 1.07.1\njq=jq-1.6\n").map((library) => library.skew)).toEqual([
      "same",
      "same",
    ]);
    expect(compareLibraries("shell", "bc=\njq=\n").map((library) => library.skew)).toEqual(["missing", "missing"]);
    const java = compareLibraries(
      "java",
      "json=/opt/verity/java-libs-1.11.4/lib/json-20241224.jar\ngson=/usr/share/java/gson-2.10.1.jar\n",
    );
    expect(java).toEqual([
      { name: "org.json", local: "20241224", reference: "20241224", skew: "same" },
      { name: "Gson", local: "2.10.1", reference: "2.11.0", skew: "older" },
    ]);
  });

  it("has nothing to say for a language the image adds no libraries to", () => {
    expect(compareLibraries("go", "anything=1\n")).toEqual([]);
  });
});
