import "server-only";

import type { EnvironmentKind } from "@/lib/records/environment-spec";

import { GO_ENVIRONMENT_RUN_SETTINGS } from "./recipes/go";
import type { Recipe } from "./recipes/types";

/** Where a dataset's environment appears inside the sandbox (read-only). */
export const ENVIRONMENT_MOUNT = "/env";

/** A dataset environment a run uses: the version it names, the host folder bound read-only, what it holds. */
export type RunEnvironment = {
  version: number;
  hostDir: string;
  kinds: readonly EnvironmentKind[];
  /** The Maven jars' file names (in java/). */
  javaJars: readonly string[];
};

const prepend = (value: string, existing: string | undefined) => (existing ? `${value}:${existing}` : value);

/**
 * The recipe a run uses with a dataset environment mounted at `root` (ENVIRONMENT_MOUNT inside the
 * sandbox, the host folder in unsafe mode): its folders go first on each language's search path, so
 * a pinned version wins over the install's. Pure: kinds the environment does not hold change nothing,
 * and without an environment the recipe is returned as it is.
 */
export function withEnvironment(recipe: Recipe, environment: RunEnvironment | null | undefined, root: string): Recipe {
  if (!environment) return recipe;
  const env: Record<string, string> = { ...recipe.env };
  const kinds = new Set(environment.kinds);
  if (kinds.has("python")) env.PYTHONPATH = prepend(`${root}/python`, env.PYTHONPATH);
  if (kinds.has("npm")) env.NODE_PATH = prepend(`${root}/node/node_modules`, env.NODE_PATH);
  if (kinds.has("go")) {
    // The Go run script appends the environment's requirements to each job's go.mod (GO_RUN_SCRIPT).
    env.SANDBOX_GO_ENVIRONMENT = `${root}/go`;
    env.GOPROXY = `file://${root}/go/proxy`;
    env.GOFLAGS = GO_ENVIRONMENT_RUN_SETTINGS.GOFLAGS;
  }
  if (kinds.has("debian")) {
    const libs = `${root}/debian/usr/lib/x86_64-linux-gnu:${root}/debian/usr/lib`;
    env.CPATH = prepend(`${root}/debian/usr/include`, env.CPATH);
    env.LIBRARY_PATH = prepend(libs, env.LIBRARY_PATH);
    env.LD_LIBRARY_PATH = prepend(libs, env.LD_LIBRARY_PATH);
    env.PKG_CONFIG_PATH = prepend(`${root}/debian/usr/lib/x86_64-linux-gnu/pkgconfig`, env.PKG_CONFIG_PATH);
  }
  // The Rust run script has rustc read the environment's extern.args too (RUST_RUN_SCRIPT).
  if (kinds.has("rust")) env.SANDBOX_RUST_ENVIRONMENT = `${root}/rust`;
  let withJars = (step: Recipe["run"]) => step;
  if (kinds.has("maven") && environment.javaJars.length > 0) {
    const jars = environment.javaJars.map((jar) => `${root}/java/${jar}`).join(":");
    env.CLASSPATH = prepend(jars, env.CLASSPATH);
    // Commands that name their class path (JUnit's launcher, `java -cp`) get the jars too.
    withJars = (step) => ({
      argv: step.argv.map((arg, index) =>
        index > 0 && ["--class-path", "-cp", "-classpath"].includes(step.argv[index - 1]) ? `${jars}:${arg}` : arg,
      ),
    });
  }
  return {
    ...recipe,
    env,
    compile: recipe.compile ? withJars(recipe.compile) : null,
    run: withJars(recipe.run),
    ...(recipe.switched
      ? {
          switched: {
            ...recipe.switched,
            compile: withJars(recipe.switched.compile),
            run: withJars(recipe.switched.run),
          },
        }
      : {}),
  };
}
