import "server-only";

import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

import { config } from "@/lib/server/config";
import { drawKey } from "@/lib/annotation/gold-draw";

/** A random URL-safe secret with a readable prefix, e.g. `vty_…` for API tokens. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

/**
 * sha256 of a high-entropy secret (API token, invitation token). Enough at rest: unlike passwords
 * these cannot be guessed, and a fast hash allows lookup by hash.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

// Without NEXTAUTH_SECRET (a script or test that is not the app), draws are still unpredictable,
// under a secret of this process alone.
const processSecret = randomBytes(32).toString("base64url");

/**
 * The key of one of the queue's secret draws (gold turns, which gold record, sample order; see
 * lib/annotation/gold-draw.ts), derived from the session secret NEXTAUTH_SECRET, which every app
 * instance shares and no annotator can read.
 */
export function queueDrawKey(...use: string[]): Buffer {
  return drawKey(config().authSecret || processSecret, ...use);
}

/**
 * The key that seals secrets Verity must use again later (a critic's API key), derived from
 * NEXTAUTH_SECRET. Unlike tokens these cannot be hashed: a worker has to send them. Without the
 * secret nothing can be sealed or opened (a process-local key would lose them at restart).
 */
function sealingKey(): Buffer {
  const secret = config().authSecret;
  if (!secret)
    throw new Error("NEXTAUTH_SECRET is not set: stored API keys are sealed with it (start Verity with `npm start`).");
  return Buffer.from(hkdfSync("sha256", secret, "verity", "sealed secrets v1", 32));
}

/** Seals a secret with AES-256-GCM under sealingKey: `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Opens a sealed secret; throws when it was sealed under another NEXTAUTH_SECRET or was altered. */
export function openSealedSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
