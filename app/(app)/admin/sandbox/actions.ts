"use server";

import { revalidatePath } from "next/cache";
import { createAction } from "@/lib/server/action";
import { recheckSandbox } from "@/lib/server/workers/status";
import { recheckSandboxSchema } from "@/lib/validation/sandbox";

/** Probes the sandbox afresh (isolation, toolchains, versions). Scope: sandbox:admin. */
export const recheckSandboxAction = createAction("sandbox:admin", recheckSandboxSchema, async ({ actor }) => {
  await recheckSandbox({ actor });
  revalidatePath("/admin/sandbox");
  return null;
});
