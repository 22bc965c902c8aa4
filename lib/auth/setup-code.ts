// The one-time setup code that guards the first-admin form. It is derived from the session secret
// (NEXTAUTH_SECRET), so the server's console can print it and the app can check it without storing
// anything; once an admin exists the form is gone and the code opens nothing. Pure, so the CLI,
// the server and the end-to-end tests share it.
import { createHmac, timingSafeEqual } from "node:crypto";

// Crockford's base32 alphabet: no I, L, O or U to misread.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The setup code for a secret: 16 characters (80 bits) in groups of four, e.g. `7K3Q-…`. */
export function setupCodeFor(secret: string): string {
  const digest = createHmac("sha256", secret).update("verity first-admin setup code").digest();
  let code = "";
  for (let i = 0; i < 16; i++) code += ALPHABET[digest[i] & 31];
  return code.match(/.{4}/g)!.join("-");
}

/** Whether what someone typed is the setup code; case, spaces and dashes do not matter. */
export function isSetupCode(typed: string, secret: string): boolean {
  const normalize = (value: string) => Buffer.from(value.toUpperCase().replace(/[^0-9A-Z]/g, ""));
  const expected = normalize(setupCodeFor(secret));
  const actual = normalize(typed);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
