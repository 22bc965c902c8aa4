import { TokenManager } from "@/components/tokens/token-manager";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listApiTokens } from "@/lib/server/users/tokens";

import { createTokenAction, revokeTokenAction } from "./actions";

export const metadata = { title: "API tokens" };

export default async function TokensPage() {
  const actor = await requirePageActor("tokens:write", "/settings/tokens");
  const tokens = await listApiTokens({ actor });
  return (
    <>
      <PageHeader
        title="API tokens"
        description={`Tokens act with your role (${actor.role.toLowerCase()}). Send one as "Authorization: Bearer <token>" to /api/v1.`}
      />
      <Card>
        <TokenManager
          tokens={tokens.map((token) => ({
            ...token,
            createdAt: token.createdAt.toISOString(),
            lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
            revokedAt: token.revokedAt?.toISOString() ?? null,
          }))}
          createToken={createTokenAction}
          revokeToken={revokeTokenAction}
        />
      </Card>
    </>
  );
}
