import { describe, expect, it } from "vitest";

import type { EnvironmentKind } from "@/lib/records/environment-spec";

import { ENVIRONMENT_MOUNT, withEnvironment } from "./environment";
import { goRecipe } from "./recipes/go";
import { javaRecipe } from "./recipes/java";
import { rustRecipe } from "./recipes/rust";
import { RECIPES } from "./recipes";

const environment = (kinds: EnvironmentKind[], javaJars: string[] = []) => ({
  version: 3,
  hostDir: "/data/environments/d1/v3",
  kinds,
  javaJars,
});

describe("a dataset environment on a recipe", () => {
  it("changes nothing without an environment, or for kinds it does not hold", () => {
    expect(withEnvironment(RECIPES.python, null, ENVIRONMENT_MOUNT)).toBe(RECIPES.python);
    const withNpmOnly = withEnvironment(RECIPES.python, environment(["npm"]), ENVIRONMENT_MOUNT);
    expect(withNpmOnly.env.PYTHONPATH).toBe(RECIPES.python.env.PYTHONPATH);
    expect(withNpmOnly.run).toEqual(RECIPES.python.run);
  });

  it("puts its folders first on each language's search path, so a pinned version wins", () => {
    const python = withEnvironment(RECIPES.python, environment(["python"]), ENVIRONMENT_MOUNT);
    expect(python.env.PYTHONPATH).toBe(`/env/python:${RECIPES.python.env.PYTHONPATH}`);
    const node = withEnvironment(RECIPES.javascript, environment(["npm"]), ENVIRONMENT_MOUNT);
    expect(node.env.NODE_PATH).toBe("/env/node/node_modules");
    const cpp = withEnvironment(RECIPES.cpp, environment(["debian"]), ENVIRONMENT_MOUNT);
    expect(cpp.env.CPATH).toBe("/env/debian/usr/include");
    expect(cpp.env.LD_LIBRARY_PATH).toContain("/env/debian/usr/lib/x86_64-linux-gnu");
  });

  it("gives Go the environment's modules as its only proxy (never the network)", () => {
    const go = withEnvironment(goRecipe, environment(["go"]), ENVIRONMENT_MOUNT);
    expect(go.env.GOPROXY).toBe("file:///env/go/proxy");
    expect(go.env.SANDBOX_GO_ENVIRONMENT).toBe("/env/go");
    expect(go.env.GOFLAGS).toBe("-mod=mod -trimpath");
  });

  it("adds Maven jars to javac's CLASSPATH and to every command that names a class path", () => {
    const java = withEnvironment(javaRecipe, environment(["maven"], ["a-1.jar", "b-2.jar"]), ENVIRONMENT_MOUNT);
    expect(java.env.CLASSPATH?.startsWith("/env/java/a-1.jar:/env/java/b-2.jar:")).toBe(true);
    const classPath = java.run.argv[java.run.argv.indexOf("--class-path") + 1];
    expect(classPath.startsWith("/env/java/a-1.jar:/env/java/b-2.jar:")).toBe(true);
  });

  it("has rustc read the environment's crates beside the reference's (the run script reads SANDBOX_RUST_ENVIRONMENT)", () => {
    const rust = withEnvironment(rustRecipe, environment(["rust"]), ENVIRONMENT_MOUNT);
    expect(rust.env.SANDBOX_RUST_ENVIRONMENT).toBe("/env/rust");
    expect(rust.run.argv[2]).toContain('"$SANDBOX_RUST_ENVIRONMENT/extern.args"');
    // Without an environment the script names the reference's crates only, as before.
    expect(withEnvironment(rustRecipe, environment(["python"]), ENVIRONMENT_MOUNT).env.SANDBOX_RUST_ENVIRONMENT).toBe(
      undefined,
    );
  });

  it("points at the host folder when the run is not wrapped (unsafe mode)", () => {
    const python = withEnvironment(RECIPES.python, environment(["python"]), "/data/environments/d1/v3");
    expect(python.env.PYTHONPATH?.startsWith("/data/environments/d1/v3/python:")).toBe(true);
    const rust = withEnvironment(rustRecipe, environment(["rust"]), "/data/environments/d1/v3");
    expect(rust.env.SANDBOX_RUST_ENVIRONMENT).toBe("/data/environments/d1/v3/rust");
  });
});
