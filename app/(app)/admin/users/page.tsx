import { InvitationList } from "@/components/admin/invitation-list";
import { InviteForm } from "@/components/admin/invite-form";
import { UserAccessRow } from "@/components/admin/user-access-row";
import { UserTokens } from "@/components/admin/user-tokens";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePageActor } from "@/lib/server/auth/require-actor";
import { listInvitations } from "@/lib/server/invitations/invitations";
import { listActiveApiTokens } from "@/lib/server/users/tokens";
import { listUsers } from "@/lib/server/users/users";

import {
  inviteUserAction,
  resendInvitationAction,
  revokeInvitationAction,
  revokeUserTokenAction,
  setUserDisabledAction,
  updateUserAccessAction,
} from "./actions";

export const metadata = { title: "Users" };

export default async function UsersPage() {
  const actor = await requirePageActor("users:admin", "/admin/users");
  const [users, invitations, tokens] = await Promise.all([
    listUsers({ actor }),
    listInvitations({ actor }),
    listActiveApiTokens({ actor }),
  ]);
  return (
    <>
      <PageHeader
        title="Users"
        description="Invite annotators and reviewers with the languages they know; change roles as the team changes; disable people who leave."
      />
      {/* grid-cols-1 lets the column shrink below the table's width; the table then scrolls sideways in its card. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card title={`People (${users.length})`}>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-1">Person</th>
                  <th className="py-1">Role</th>
                  <th className="py-1">Languages</th>
                  <th />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {users.map((user) => (
                  <UserAccessRow
                    key={user.id}
                    user={{
                      id: user.id,
                      email: user.email,
                      name: user.name,
                      role: user.role,
                      languages: user.languages,
                      disabled: user.disabled,
                    }}
                    isSelf={user.id === actor.id}
                    updateAccess={updateUserAccessAction}
                    setDisabled={setUserDisabledAction}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </Card>
        <div className="space-y-6">
          <Card title="Invite someone">
            <InviteForm invite={inviteUserAction} />
          </Card>
          <Card title={`Invitations (${invitations.length})`}>
            <InvitationList
              invitations={invitations.map((invitation) => ({
                id: invitation.id,
                email: invitation.email,
                role: invitation.role,
                languages: invitation.languages,
                status: invitation.status,
                expiresAt: invitation.expiresAt.toISOString(),
              }))}
              resend={resendInvitationAction}
              revoke={revokeInvitationAction}
            />
          </Card>
          <Card title={`Active API tokens (${tokens.length})`}>
            <UserTokens
              tokens={tokens.map((token) => ({
                id: token.id,
                name: token.name,
                prefix: token.prefix,
                ownerEmail: token.owner.email,
                lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
              }))}
              revokeToken={revokeUserTokenAction}
            />
          </Card>
        </div>
      </div>
    </>
  );
}
