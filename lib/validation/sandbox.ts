import { z } from "zod";

/** The sandbox page's "Check again": it takes nothing, the probe reads the machine. */
export const recheckSandboxSchema = z.object({});
