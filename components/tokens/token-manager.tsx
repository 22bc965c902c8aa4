"use client";

import { useState } from "react";
import type { z } from "zod";

import { EmptyRow } from "@/components/ui/data-table";
import { Badge, Button, ErrorNote, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { tokenIdSchema, tokenNameSchema } from "@/lib/validation/auth";

type TokenSummary = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export function TokenManager({
  tokens,
  createToken,
  revokeToken,
}: {
  tokens: TokenSummary[];
  createToken: Action<z.input<typeof tokenNameSchema>, { token: string }>;
  revokeToken: Action<{ tokenId: string }, null>;
}) {
  const [secret, setSecret] = useState<string>();
  const { submit, isPending, message, fieldErrors } = useAction();
  const error = fieldErrors.name?.[0] ?? message;

  async function onCreate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const result = await submit(tokenNameSchema, { name: String(new FormData(formElement).get("name")) }, createToken);
    if (!result.ok) return;
    setSecret(result.data.token);
    formElement.reset();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onCreate} className="flex max-w-md gap-2">
        <Input
          name="name"
          placeholder="Token name, e.g. pre-labelling script"
          aria-label="Token name"
          required
          maxLength={60}
        />
        <Button type="submit" disabled={isPending}>
          Create token
        </Button>
      </form>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {secret ? (
        <div className="rounded-md bg-amber-50 p-3 text-sm ring-1 ring-amber-200" role="status">
          <p className="font-medium">Copy the token now; it will not be shown again.</p>
          <input
            readOnly
            value={secret}
            aria-label="New token"
            className="mt-1 w-full rounded bg-white px-2 py-1 font-mono text-xs ring-1 ring-amber-300"
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      ) : null}
      <table className="w-full text-sm">
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">Name</th>
            <th className="py-1">Token</th>
            <th className="py-1">Created</th>
            <th className="py-1">Last used</th>
            <th />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tokens.map((token) => (
            <tr key={token.id}>
              <td className="py-2">{token.name}</td>
              <td className="py-2 font-mono text-xs">{token.prefix}…</td>
              <td className="py-2">{token.createdAt.slice(0, 10)}</td>
              <td className="py-2">{token.lastUsedAt?.slice(0, 16).replace("T", " ") ?? "never"}</td>
              <td className="py-2 text-right">
                {token.revokedAt ? (
                  <Badge>revoked</Badge>
                ) : (
                  <Button
                    variant="danger"
                    disabled={isPending}
                    onClick={() => submit(tokenIdSchema, { tokenId: token.id }, revokeToken)}
                  >
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
          {tokens.length === 0 ? (
            <EmptyRow columns={5} className="py-3">
              No tokens yet.
            </EmptyRow>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
