// Which external sign-in methods are on, from the environment. Pure, so it is unit-tested.

export type ExternalProviderConfig =
  | { kind: "github"; clientId: string; clientSecret: string }
  | { kind: "oidc"; issuer: string; clientId: string; clientSecret: string; name: string };

/**
 * GitHub turns on with GITHUB_ID and GITHUB_SECRET; a generic OIDC provider with OIDC_ISSUER,
 * OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (OIDC_NAME labels its button). Half a configuration is an
 * error rather than a silently missing button.
 */
export function externalProvidersFromEnv(env: Record<string, string | undefined>): ExternalProviderConfig[] {
  const providers: ExternalProviderConfig[] = [];
  const github = requireAllOrNone(env, ["GITHUB_ID", "GITHUB_SECRET"]);
  if (github) providers.push({ kind: "github", clientId: github.GITHUB_ID, clientSecret: github.GITHUB_SECRET });
  const oidc = requireAllOrNone(env, ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]);
  if (oidc) {
    let issuer: URL;
    try {
      issuer = new URL(oidc.OIDC_ISSUER);
    } catch {
      throw new Error(`OIDC_ISSUER must be a URL, got "${oidc.OIDC_ISSUER}"`);
    }
    providers.push({
      kind: "oidc",
      issuer: issuer.toString().replace(/\/$/, ""),
      clientId: oidc.OIDC_CLIENT_ID,
      clientSecret: oidc.OIDC_CLIENT_SECRET,
      name: env.OIDC_NAME?.trim() || "Single sign-on",
    });
  }
  return providers;
}

function requireAllOrNone<K extends string>(
  env: Record<string, string | undefined>,
  keys: K[],
): Record<K, string> | null {
  const present = keys.filter((key) => env[key]?.trim());
  if (present.length === 0) return null;
  if (present.length < keys.length) {
    const missing = keys.filter((key) => !present.includes(key));
    throw new Error(`Set ${missing.join(" and ")} too, or unset ${present.join(" and ")}.`);
  }
  return Object.fromEntries(keys.map((key) => [key, env[key]!.trim()])) as Record<K, string>;
}
