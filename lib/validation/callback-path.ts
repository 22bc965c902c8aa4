// Where to go after sign-in comes from the query string, so anyone can write it into a link.
// Only paths on this site are followed: an open redirect would lend Verity's name to a phishing page.

const DEFAULT_PATH = "/datasets";
// A stand-in origin for resolving relative paths; never shown or followed.
const PLACEHOLDER_ORIGIN = "http://verity.invalid";

/**
 * The same-origin path (with query and fragment) that `value` points to, or "/datasets".
 * `origin` (the app's own, e.g. "https://verity.example") also admits absolute URLs on this site.
 */
export function safeCallbackPath(value: string | null | undefined, origin?: string): string {
  if (!value || /[\\\u0000-\u001f]/.test(value)) return DEFAULT_PATH;
  const isRelative = value.startsWith("/") && !value.startsWith("//");
  if (!isRelative && !(origin && value.startsWith(`${origin}/`))) return DEFAULT_PATH;
  let url: URL;
  try {
    url = new URL(isRelative ? value : value.slice(origin!.length), PLACEHOLDER_ORIGIN);
  } catch {
    return DEFAULT_PATH;
  }
  // "/.//evil.example" resolves to the path "//evil.example", which a browser reads as another host.
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname.startsWith("//")) return DEFAULT_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}
