"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";

import { createAction } from "@/lib/server/action";
import { recheckSandbox } from "@/lib/server/workers/status";

/** Probes the sandbox afresh (isolation, toolchains, versions). Scope: sandbox:admin. */
export const recheckSandboxAction = createAction("sandbox:admin", z.object({}), async ({ actor }) => {
  await recheckSandbox({ actor });
  revalidatePath("/admin/sandbox");
  return null;
});
