import { reloadConfig } from "@/lib/server/config";

/**
 * Sets (or, with undefined, unsets) environment variables for a test and makes the configuration
 * parse them again at its next read: the app parses its environment once, so a bare assignment to
 * process.env would go unseen.
 */
export function setEnv(variables: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(variables)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadConfig();
}
