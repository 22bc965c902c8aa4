"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

import { Badge, Button, ErrorNote } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { invitationIdSchema } from "@/lib/validation/auth";

import { InvitationLink } from "./invitation-link";

export type InvitationListRow = {
  id: string;
  email: string;
  role: string;
  languages: string[];
  expiresAt: string;
  status: "open" | "expired";
};

/** Unused invitations with their status; issue a fresh link (the old stops working) or revoke. */
export function InvitationList({
  invitations,
  resend,
  revoke,
}: {
  invitations: InvitationListRow[];
  resend: Action<{ invitationId: string }, { link: string }>;
  revoke: Action<{ invitationId: string }, null>;
}) {
  const router = useRouter();
  const [fresh, setFresh] = useState<{ id: string; link: string }>();
  // One call at a time (useAction drops a second one), so every row's buttons wait for it.
  const { submit, isPending, message: error } = useAction();

  async function onResend(id: string) {
    const result = await submit(invitationIdSchema, { invitationId: id }, resend);
    if (!result.ok) return;
    setFresh({ id, link: result.data.link });
    router.refresh();
  }

  async function onRevoke(id: string, email: string) {
    if (!window.confirm(`Revoke the invitation for ${email}? Its link stops working.`)) return;
    const result = await submit(invitationIdSchema, { invitationId: id }, revoke);
    if (result.ok) router.refresh();
  }

  if (invitations.length === 0) return <p className="text-sm text-slate-500">None.</p>;
  return (
    <div className="space-y-3">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <p className="text-xs text-slate-500">
        Links are stored only as a fingerprint, so an old link cannot be shown again: “New link” issues a fresh one,
        valid 7 days, and the old one stops working.
      </p>
      <ul className="divide-y divide-slate-100 text-sm" aria-label="Invitations">
        {invitations.map((invitation) => (
          <li key={invitation.id} aria-label={`Invitation for ${invitation.email}`} className="space-y-2 py-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-slate-800">
                {invitation.email} · {invitation.role.toLowerCase()}
              </span>
              {invitation.languages.length ? (
                <span className="text-slate-500">{invitation.languages.join(", ")}</span>
              ) : null}
              {invitation.status === "open" ? (
                <Badge tone="green">open · expires {invitation.expiresAt.slice(0, 10)}</Badge>
              ) : (
                <Badge tone="amber">expired</Badge>
              )}
            </div>
            <div className="flex gap-2">
              <Button
                type="button"
                variant="secondary"
                disabled={isPending}
                onClick={() => void onResend(invitation.id)}
              >
                New link
              </Button>
              <Button
                type="button"
                variant="danger"
                disabled={isPending}
                onClick={() => void onRevoke(invitation.id, invitation.email)}
              >
                Revoke
              </Button>
            </div>
            {fresh?.id === invitation.id ? (
              <InvitationLink
                link={fresh.link}
                note={`New link for ${invitation.email} (valid 7 days; the old link no longer works):`}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
