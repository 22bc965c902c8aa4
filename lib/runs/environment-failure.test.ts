import { describe, expect, it } from "vitest";

import { describeMissing, environmentFailure } from "./environment-failure";

// Each message below is what the real toolchain printed in the local sandbox (2026-12-04: Python
// 3.11, g++ 12 with GNU ld 2.40, Go 1.24.5 with GOPROXY=off, javac 17, Node 20, tsx, rustc 1.96,
// Perl 5.36, Ruby 3.1, R 4.2), trimmed to the lines around the cause.
const run = (language: string, outcome: string, stderr: string, compileOutput: string | null = null) => ({
  language,
  outcome,
  stderr,
  compileOutput,
});

describe("environmentFailure", () => {
  it("names a Python module that is not installed, top-level or nested", () => {
    const torch =
      "Traceback (most recent call last):\n  File \"/job/test.py\", line 1, in <module>\n    import torch\nModuleNotFoundError: No module named 'torch'\n";
    expect(environmentFailure(run("python", "RUNTIME_ERROR", torch))).toEqual({ kind: "module", missing: "torch" });
    expect(
      environmentFailure(
        run(
          "python",
          "RUNTIME_ERROR",
          "    from sklearn_extra.cluster import KMedoids\nModuleNotFoundError: No module named 'sklearn_extra'\n",
        ),
      ),
    ).toEqual({ kind: "module", missing: "sklearn_extra" });
    expect(
      environmentFailure(run("python", "RUNTIME_ERROR", "ModuleNotFoundError: No module named 'numpy.fakesub'\n"))
        ?.missing,
    ).toBe("numpy.fakesub");
  });

  it("leaves a Python name missing from an installed module, and a failing assertion, to the record", () => {
    const wrongName =
      "ImportError: cannot import name 'nonexistent_name' from 'numpy' (/opt/verity/python-libs/numpy/__init__.py)\n";
    expect(environmentFailure(run("python", "RUNTIME_ERROR", wrongName))).toBeNull();
    expect(
      environmentFailure(run("python", "RUNTIME_ERROR", "    assert add(1, 2) == 4\nAssertionError\n")),
    ).toBeNull();
  });

  it("names a C++ header an #include cannot find, and a library the linker cannot find", () => {
    const header =
      "test.cpp:2:10: fatal error: fmt/core.h: No such file or directory\n    2 | #include <fmt/core.h>\n      |          ^~~~~~~~~~~~\ncompilation terminated.\n";
    expect(environmentFailure(run("cpp", "COMPILATION_ERROR", "", header))).toEqual({
      kind: "header",
      missing: "fmt/core.h",
    });
    const linker =
      "/usr/bin/ld: cannot find -lfmt: No such file or directory\ncollect2: error: ld returned 1 exit status\n";
    const library = environmentFailure(run("cpp", "COMPILATION_ERROR", "", linker));
    expect(library).toEqual({ kind: "library", missing: "fmt" });
    expect(describeMissing(library!)).toBe("library -lfmt");
  });

  it("leaves a C++ record's own compile errors (an undefined reference, a type error) to the record", () => {
    const undefinedReference =
      "/usr/bin/ld: /tmp/ccbIrdhT.o: in function `main':\nw.cpp:(.text+0x1f): undefined reference to `SHA256'\ncollect2: error: ld returned 1 exit status\n";
    expect(environmentFailure(run("cpp", "COMPILATION_ERROR", "", undefinedReference))).toBeNull();
    const typeError = "test.cpp:4:12: error: 'vector' was not declared in this scope\n";
    expect(environmentFailure(run("cpp", "COMPILATION_ERROR", "", typeError))).toBeNull();
  });

  it("names the library a C++ link step failed for when the program includes its header", () => {
    // HumanEval-X's CPP/162 as g++ 12 links it without -lcrypto (its own harness adds -lcrypto -lssl).
    const md5 =
      "/usr/bin/ld: /tmp/cc7T8icx.o: in function `string_to_md5(std::string)':\ntest.cpp:(.text+0x78): undefined reference to `MD5_Init'\ncollect2: error: ld returned 1 exit status\n";
    const program = "#include<openssl/md5.h>\n#include <string>\nstd::string string_to_md5(std::string text) {}\n";
    const failure = environmentFailure({ ...run("cpp", "COMPILATION_ERROR", "", md5), program });
    expect(failure).toEqual({ kind: "library", missing: "crypto" });
    expect(describeMissing(failure!)).toBe("library -lcrypto");
    const filesystem = { ...run("cpp", "COMPILATION_ERROR", "", md5), program: "#include <boost/filesystem.hpp>\n" };
    expect(environmentFailure(filesystem)?.missing).toBe("boost_filesystem");
    // The same undefined reference in a program that includes no library header is the record's.
    expect(
      environmentFailure({ ...run("cpp", "COMPILATION_ERROR", "", md5), program: "#include <string>\n" }),
    ).toBeNull();
    // A header-only library (nlohmann-json) names nothing to link.
    expect(
      environmentFailure({ ...run("cpp", "COMPILATION_ERROR", "", md5), program: "#include <nlohmann/json.hpp>\n" }),
    ).toBeNull();
  });

  it("names a Go package no module provides", () => {
    const goproxyOff =
      "go: finding module for package github.com/stretchr/testify/assert\ngo: finding module for package github.com/google/uuid\n# sandbox\nmain_test.go:4:2: cannot find module providing package github.com/google/uuid: module lookup disabled by GOPROXY=off\n";
    expect(environmentFailure(run("go", "RUNTIME_ERROR", goproxyOff))).toEqual({
      kind: "package",
      missing: "github.com/google/uuid",
    });
    const noRequired =
      "main_test.go:5:2: no required module provides package github.com/stretchr/testify/assert; to add it:\n\tgo get github.com/stretchr/testify/assert\n";
    expect(environmentFailure(run("go", "RUNTIME_ERROR", noRequired))?.missing).toBe(
      "github.com/stretchr/testify/assert",
    );
    expect(
      environmentFailure(run("go", "RUNTIME_ERROR", "main_test.go:4:2: package strngs is not in std\n")),
    ).toBeNull();
  });

  it("names a Java package that does not exist", () => {
    const javac =
      "test.java:1: error: package com.fasterxml.jackson.databind does not exist\nimport com.fasterxml.jackson.databind.ObjectMapper;\n                                     ^\ntest.java:6: error: cannot find symbol\n";
    expect(environmentFailure(run("java", "COMPILATION_ERROR", "", javac))).toEqual({
      kind: "package",
      missing: "com.fasterxml.jackson.databind",
    });
    expect(
      environmentFailure(run("java", "COMPILATION_ERROR", "", "test.java:6: error: cannot find symbol\n")),
    ).toBeNull();
  });

  it("names an npm package Node or tsx cannot find, not a relative file", () => {
    const node =
      "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module 'lodash'\nRequire stack:\n- /job/test.js\n";
    expect(environmentFailure(run("javascript", "RUNTIME_ERROR", node))).toEqual({ kind: "module", missing: "lodash" });
    expect(
      environmentFailure(
        run("typescript", "RUNTIME_ERROR", "Error: Cannot find module 'dayjs'\nRequire stack:\n- /job/test.ts\n"),
      )?.missing,
    ).toBe("dayjs");
    const esm = "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /job/test.mjs\n";
    expect(environmentFailure(run("javascript", "RUNTIME_ERROR", esm))?.missing).toBe("chalk");
    expect(
      environmentFailure(run("javascript", "RUNTIME_ERROR", "Error: Cannot find module './helpers'\n")),
    ).toBeNull();
  });

  it("names a Rust crate that is not there, not a wrong path into std or the crate itself", () => {
    const externCrate = "error[E0463]: can't find crate for `itertools`\n --> src/main.rs:2:1\n";
    expect(environmentFailure(run("rust", "RUNTIME_ERROR", externCrate))).toEqual({
      kind: "crate",
      missing: "itertools",
    });
    const useCrate =
      "error[E0432]: unresolved import `serde_json`\n --> src/main.rs:1:5\n  |\n1 | use serde_json::Value;\n  |     ^^^^^^^^^^ use of unresolved module or unlinked crate `serde_json`\n";
    expect(environmentFailure(run("rust", "RUNTIME_ERROR", useCrate))?.missing).toBe("serde_json");
    const ownMistakes =
      "error[E0432]: unresolved import `std::collections::HashMapp`\n --> src/main.rs:1:5\nerror[E0432]: unresolved import `crate::helpers`\n --> src/main.rs:2:12\n";
    expect(environmentFailure(run("rust", "RUNTIME_ERROR", ownMistakes))).toBeNull();
    expect(
      environmentFailure(run("rust", "RUNTIME_ERROR", "error[E0432]: unresolved import `collections`\n")),
    ).toBeNull();
  });

  it("names a crate built by another rustc (an environment built before rustc changed), not the record", () => {
    // rustc 1.95 given an rlib of a dataset environment built with rustc 1.96.
    const stale =
      "error[E0514]: found crate `unicode_width` compiled by an incompatible version of rustc\n --> t.rs:1:5\n  |\n" +
      "1 | use unicode_width::UnicodeWidthStr;\n  |     ^^^^^^^^^^^^^\n  |\n  = note: the following crate versions were found:\n" +
      "          crate `unicode_width` compiled by rustc 1.96.0 (ac68faa20 2026-05-25) (built from a source tarball): /env/rust/deps/libunicode_width-d93f90eb8b01a177.rlib\n" +
      "  = help: please recompile that crate using this compiler (rustc 1.95.0 (59807616e 2026-04-14)) (consider running `cargo clean` first)\n";
    expect(environmentFailure(run("rust", "RUNTIME_ERROR", stale))).toEqual({
      kind: "crate",
      missing: "unicode_width",
    });
  });

  it("names a Perl module, a Ruby library and an R package that are not installed", () => {
    const perl =
      "Can't locate JSON/XS.pm in @INC (you may need to install the JSON::XS module) (@INC contains: /etc/perl …) at test.pl line 1.\n";
    expect(environmentFailure(run("perl", "RUNTIME_ERROR", perl))).toEqual({ kind: "module", missing: "JSON::XS" });
    const ruby =
      "<internal:/usr/lib/ruby/vendor_ruby/rubygems/core_ext/kernel_require.rb>:85:in `require': cannot load such file -- nokogiri (LoadError)\n";
    expect(environmentFailure(run("ruby", "RUNTIME_ERROR", ruby))).toEqual({ kind: "module", missing: "nokogiri" });
    const r = "Error in library(dplyr) : there is no package called ‘dplyr’\nExecution halted\n";
    expect(environmentFailure(run("r", "RUNTIME_ERROR", r))).toEqual({ kind: "package", missing: "dplyr" });
  });

  it("reads only failed builds and runs, and only the language's own toolchain's words", () => {
    const message = "ModuleNotFoundError: No module named 'torch'\n";
    for (const outcome of ["PASSED", "WRONG_ANSWER", "TIME_LIMIT_EXCEEDED"])
      expect(environmentFailure(run("python", outcome, message))).toBeNull();
    // A JavaScript program that prints Python's words is not missing a Python module.
    expect(environmentFailure(run("javascript", "RUNTIME_ERROR", message))).toBeNull();
    expect(environmentFailure(run("kotlin", "RUNTIME_ERROR", message))).toBeNull();
  });
});
