import "server-only";

import { createRateLimiter } from "@/lib/server/rate-limit";

/** Runs cost real CPU: a burst of 20, then 30 a minute per user, one budget shared by the REST API and the workspace. */
export const runLimiter = createRateLimiter({ capacity: 20, perMinute: 30 });
