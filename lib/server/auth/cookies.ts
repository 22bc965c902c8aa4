import type { CookiesOptions } from "next-auth";

const COOKIE_NAMES = {
  sessionToken: "next-auth.session-token",
  callbackUrl: "next-auth.callback-url",
  csrfToken: "next-auth.csrf-token",
  pkceCodeVerifier: "next-auth.pkce.code_verifier",
  state: "next-auth.state",
  nonce: "next-auth.nonce",
} as const;

// The short-lived cookies of an external sign-in (next-auth's own lifetimes).
const FIFTEEN_MINUTES = 15 * 60;

/**
 * next-auth's cookies. Behind HTTPS every one is `__Host-` prefixed and `Secure`: the browser then
 * accepts it only from this exact origin over TLS (no Domain, path /), so a page on another port or
 * subdomain cannot plant or overwrite it. Over plain HTTP the names are next-auth's defaults and
 * nothing separates them by port (docs/security.md, "Session cookies").
 */
export function sessionCookies({ isSecure }: { isSecure: boolean }): Partial<CookiesOptions> {
  const prefix = isSecure ? "__Host-" : "";
  const cookie = (name: string, maxAge?: number) => ({
    name: `${prefix}${name}`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: isSecure, ...(maxAge ? { maxAge } : {}) },
  });
  return {
    sessionToken: cookie(COOKIE_NAMES.sessionToken),
    callbackUrl: cookie(COOKIE_NAMES.callbackUrl),
    csrfToken: cookie(COOKIE_NAMES.csrfToken),
    pkceCodeVerifier: cookie(COOKIE_NAMES.pkceCodeVerifier, FIFTEEN_MINUTES),
    state: cookie(COOKIE_NAMES.state, FIFTEEN_MINUTES),
    nonce: cookie(COOKIE_NAMES.nonce),
  };
}
