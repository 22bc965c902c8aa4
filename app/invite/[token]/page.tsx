import { AcceptInvitationForm } from "@/components/auth/accept-invitation-form";
import { languageName } from "@/lib/records/languages";
import { findOpenInvitation } from "@/lib/server/invitations/invitations";

import { acceptInvitationAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findOpenInvitation(token);
  return (
    <main className="mx-auto mt-16 max-w-sm px-4">
      <h1 className="text-2xl font-semibold">Join Verity</h1>
      <div className="mt-8 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        {invitation ? (
          <>
            <p className="mb-4 text-sm text-slate-600">
              You are invited as <strong>{invitation.role.toLowerCase()}</strong> ({invitation.email})
              {invitation.languages.length ? (
                <> for {invitation.languages.map((l) => languageName(l)).join(", ")}</>
              ) : null}
              . Choose a password to finish.
            </p>
            <AcceptInvitationForm token={token} email={invitation.email} acceptInvitation={acceptInvitationAction} />
          </>
        ) : (
          <p className="text-sm text-slate-700">
            This invitation link is invalid, already used, or expired. Ask your admin for a new one.
          </p>
        )}
      </div>
    </main>
  );
}
