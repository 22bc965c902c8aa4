import { type NextRequest, NextResponse } from "next/server";

/**
 * A per-request nonce and a Content-Security-Policy for pages. Scripts run only with the nonce (and
 * what they load: 'strict-dynamic' admits Monaco's loader and modules, served from /monaco); styles
 * may be inline because Monaco and the charts set style attributes. API routes are left alone: they
 * serve JSON, and the proxy must not touch large import uploads.
 */
export async function proxy(request: NextRequest) {
  // A path whose escapes do not decode names nothing: Next.js would fail decoding its parameters
  // (a plain-text 500). API callers get the API's 404; pages get the not-found page.
  if (!isDecodablePath(request.nextUrl.pathname)) {
    if (request.nextUrl.pathname.startsWith("/api/"))
      return Response.json({ error: { code: "NOT_FOUND", message: "Not found." } }, { status: 404 });
    return NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url), { status: 404 });
  }
  const tooLarge = await refuseLargeActionBody(request);
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

/** A path no page has: rewriting to it renders the app's not-found page with a 404. */
const NOT_FOUND_PATH = "/_verity-not-found";

/** Whether every segment of a path decodes (a malformed escape such as `%ff` or `%E0%A4%A` does not). */
function isDecodablePath(pathname: string): boolean {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

// Next.js's own limit for server action bodies (serverActions.bodySizeLimit, 1 MB by default).
const MAX_ACTION_BODY_BYTES = 1024 * 1024;

const tooLargeAction = () =>
  Response.json(
    { error: { code: "PAYLOAD_TOO_LARGE", message: "The form is too large to send (over 1 MB). Nothing was saved." } },
    { status: 413 },
  );

/**
 * A server action whose body is over the limit gets a clear 413 here, before Next.js reads it
 * (which throws an unhandled error and answers 500): at once when its declared length is over, and,
 * for a body sent without a length (chunked), once the proxy's copy of it passes the limit.
 */
async function refuseLargeActionBody(request: NextRequest): Promise<Response | null> {
  if (request.method !== "POST" || !request.headers.has("next-action")) return null;
  const declared = request.headers.get("content-length");
  if (declared !== null) return Number(declared) > MAX_ACTION_BODY_BYTES ? tooLargeAction() : null;
  if (!request.body) return null;
  const reader = request.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return null;
    size += value.byteLength;
    if (size > MAX_ACTION_BODY_BYTES) {
      await reader.cancel();
      return tooLargeAction();
    }
  }
}

// Prefetches too (`Purpose: prefetch`, `next-router-prefetch`): a prefetched page is shown as it was
// served, so it needs the policy as much as any other (Next.js's example skips them to save work).
// API routes pass only when their path holds a `%` that cannot start a valid escape (the proxy
// copies a request's body, up to 10 MB, and would cut a large import short): ids of records,
// campaigns and the like never hold one; dataset names may hold any character, so under /datasets
// only escapes no UTF-8 text has (a `%` without two hex digits, bytes C0, C1, F5–FF) are caught.
export const config = {
  matcher: [
    "/((?!api|_next/static|_next/image|monaco|favicon.ico|icon.svg|apple-touch-icon.png).*)",
    "/api/v1/(campaigns|records|items|imports|invitations|repairs|revisions|solution-runs|verifications)/:rest(.*%.*)",
    "/api/v1/datasets/:rest(.*%(?:[^0-9a-fA-F]|.[^0-9a-fA-F]|[cC][01]|[fF][5-9a-fA-F]).*|.*%.?)",
  ],
};
