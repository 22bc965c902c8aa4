"use client";

import { Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { tokenIdSchema } from "@/lib/validation/auth";

type ActiveToken = { id: string; name: string; prefix: string; ownerEmail: string; lastUsedAt: string | null };

/** Every user's active API tokens, each with a Revoke button (a leaked token, a person who left). */
export function UserTokens({
  tokens,
  revokeToken,
}: {
  tokens: ActiveToken[];
  revokeToken: Action<{ tokenId: string }, null>;
}) {
  const { submit, isPending, message: error } = useAction();

  if (tokens.length === 0) return <p className="text-sm text-slate-500">None.</p>;
  return (
    <div className="space-y-2">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <ul className="space-y-2 text-sm">
        {tokens.map((token) => (
          <li key={token.id} className="flex items-start justify-between gap-2">
            <div>
              <div>
                {token.ownerEmail} · {token.name}
              </div>
              <div className="text-xs text-slate-500">
                <span className="font-mono">{token.prefix}…</span> · last used{" "}
                {token.lastUsedAt?.slice(0, 16).replace("T", " ") ?? "never"}
              </div>
            </div>
            <Button
              variant="danger"
              onClick={() => submit(tokenIdSchema, { tokenId: token.id }, revokeToken)}
              disabled={isPending}
              aria-label={`Revoke ${token.ownerEmail}'s token ${token.name}`}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
