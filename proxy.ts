import { type NextRequest, NextResponse } from "next/server";

/**
 * A per-request nonce and a Content-Security-Policy for pages. Scripts run only with the nonce (and
 * what they load: 'strict-dynamic' admits Monaco's loader and modules, served from /monaco); styles
 * may be inline because Monaco and the charts set style attributes. API routes are left alone: they
 * serve JSON, and the proxy must not touch large import uploads.
 */
export function proxy(request: NextRequest) {
  const tooLarge = refuseLargeActionBody(request);
  if (tooLarge) return tooLarge;
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const isDev = process.env.NODE_ENV === "development";
  const isHttps = request.nextUrl.protocol === "https:" || process.env.NEXTAUTH_URL?.startsWith("https://");
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(isHttps ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  // The page asked for, so that a signed-out visitor comes back to it after sign-in (layouts see no URL).
  requestHeaders.set("x-verity-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

// Next.js's own limit for server action bodies (serverActions.bodySizeLimit, 1 MB by default).
const MAX_ACTION_BODY_BYTES = 1024 * 1024;

/**
 * A server action whose declared body is over the limit gets a clear 413 here, before Next.js
 * reads it (which throws an unhandled error and answers 500). A body sent without a length is
 * still cut off by Next.js at the same limit.
 */
function refuseLargeActionBody(request: NextRequest): Response | null {
  if (request.method !== "POST" || !request.headers.has("next-action")) return null;
  const length = Number(request.headers.get("content-length") ?? 0);
  if (!(length > MAX_ACTION_BODY_BYTES)) return null;
  return Response.json(
    { error: { code: "PAYLOAD_TOO_LARGE", message: "The form is too large to send (over 1 MB). Nothing was saved." } },
    { status: 413 },
  );
}

// Prefetches too (`Purpose: prefetch`, `next-router-prefetch`): a prefetched page is shown as it was
// served, so it needs the policy as much as any other (Next.js's example skips them to save work).
export const config = {
  matcher: ["/((?!api|_next/static|_next/image|monaco|favicon.ico|icon.svg|apple-touch-icon.png).*)"],
};
