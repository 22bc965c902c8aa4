import "server-only";

import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import type { Provider } from "next-auth/providers/index";
import { z } from "zod";

import { config } from "@/lib/server/config";
import { findActorByEmail, revokeSessions } from "@/lib/server/users/users";
import { safeCallbackPath } from "@/lib/validation/callback-path";

import { requestAddress } from "./client-address";
import { sessionCookies } from "./cookies";
import { signInWithPassword } from "./password-sign-in";
import { databaseFailure } from "@/lib/server/db/failures";

import { standingSessionActor } from "./standing-session";
import type { ExternalProviderConfig } from "./providers";

const credentialsSchema = z.object({ email: z.string().email(), password: z.string().min(1) });
const { secureCookies } = config();

function toProvider(provider: ExternalProviderConfig): Provider {
  if (provider.kind === "github")
    return GitHubProvider({ clientId: provider.clientId, clientSecret: provider.clientSecret });
  return {
    id: "oidc",
    name: provider.name,
    type: "oauth",
    wellKnown: `${provider.issuer}/.well-known/openid-configuration`,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    profile: (profile: { sub: string; email?: string; name?: string }) => ({
      id: profile.sub,
      email: profile.email ?? null,
      name: profile.name ?? null,
    }),
  };
}

/** The external sign-in buttons to show on the sign-in page. */
export function externalSignInOptions(): { id: string; name: string }[] {
  return config().externalProviders.map((provider) =>
    provider.kind === "github" ? { id: "github", name: "GitHub" } : { id: "oidc", name: provider.name },
  );
}

/**
 * next-auth configuration: email + password, plus GitHub / OIDC when configured. Sessions are JWTs
 * holding only the user id; the role is re-read from the database on every request
 * (getSessionActor, lib/server/auth/actor.ts), so a role change or disabled account applies at once.
 * External sign-in is allowed only for people who already have an account (invited first).
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
  pages: { signIn: "/signin", error: "/signin" },
  // Behind HTTPS: __Host- prefixed, Secure cookies (lib/server/auth/cookies.ts).
  useSecureCookies: secureCookies,
  cookies: sessionCookies({ isSecure: secureCookies }),
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const parsed = credentialsSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const address = requestAddress(request?.headers ?? {});
        // Throws RATE_LIMITED ("Too many attempts; try again in N s."), which next-auth shows as the error.
        const actor = await signInWithPassword({ ...parsed.data, address });
        return actor ? { id: actor.id, email: actor.email, name: actor.name } : null;
      },
    }),
    ...config().externalProviders.map(toProvider),
  ],
  callbacks: {
    async signIn({ user, account }) {
      if (!account || account.type === "credentials") return true;
      if (!user.email) return "/signin?error=NoEmail";
      return (await findActorByEmail(user.email)) ? true : "/signin?error=NotInvited";
    },
    async jwt({ token, user, account }) {
      if (user && account) {
        // For external providers the provider's id is not ours: map the email to our user.
        const actor = account.type === "credentials" ? { id: user.id } : await findActorByEmail(user.email ?? "");
        if (actor) token.sub = actor.id;
        // Kept across the token's renewals (unlike iat): sign-out and disabling refuse sessions signed in before them.
        token.signedInAt = Date.now();
      }
      return token;
    },
    // Only paths on this site: next-auth's own check lets "/.//evil.example" through.
    async redirect({ url, baseUrl }) {
      return new URL(safeCallbackPath(url, new URL(baseUrl).origin), baseUrl).toString();
    },
    // What /api/auth/session answers (and getServerSession returns): nothing for a session that
    // sign-out or disabling revoked, so a stolen old cookie does not even name its owner.
    async session({ session, token }) {
      const signedInAt = typeof token.signedInAt === "number" ? token.signedInAt : 0;
      let isStanding: boolean;
      try {
        isStanding = token.sub ? (await standingSessionActor(token.sub, signedInAt)) !== null : false;
      } catch (error) {
        // The database is away: whether the session still stands cannot be read. next-auth would
        // take a throw for a bad session and clear the cookie, so the person would be told to sign
        // in (and be signed out). Keep it: every page, action and route checks it again
        // (getSessionActor), and there the outage is answered as "unavailable".
        if (databaseFailure(error)?.code !== "UNAVAILABLE" || !token.sub) throw error;
        return { ...session, userId: token.sub, signedInAt };
      }
      if (!isStanding) return {} as typeof session;
      return { ...session, userId: token.sub, signedInAt };
    },
  },
  events: {
    // JWT sessions live in the cookie; sign-out also refuses, server-side, every session this user signed in before now.
    async signOut({ token }) {
      if (token?.sub) await revokeSessions({ userId: token.sub });
    },
  },
};
