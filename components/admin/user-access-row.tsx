"use client";

import { useState } from "react";
import type { z } from "zod";

import { Badge, Button, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { updateAccessSchema, userDisabledSchema } from "@/lib/validation/auth";

import { LanguagePicker } from "./language-picker";

type AccessInput = z.input<typeof updateAccessSchema>;
type Role = AccessInput["role"];
type UserSummary = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  languages: string[];
  disabled: boolean;
};

/** One user in the admin's table, with an inline editor for role and languages and a switch to disable them. */
export function UserAccessRow({
  user,
  isSelf,
  updateAccess,
  setDisabled,
}: {
  user: UserSummary;
  isSelf: boolean;
  updateAccess: Action<AccessInput, null>;
  setDisabled: Action<z.input<typeof userDisabledSchema>, null>;
}) {
  const [isEditing, setEditing] = useState(false);
  const { submit, isPending, message: error, notice, announce } = useAction();
  const message = error ?? notice;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The form's values as typed; the schema checks the role and languages are ones it knows.
    const input = {
      userId: user.id,
      role: String(form.get("role")) as Role,
      languages: form.getAll("languages").map(String) as AccessInput["languages"],
    };
    const result = await submit(updateAccessSchema, input, updateAccess);
    if (!result.ok) return;
    setEditing(false);
    announce("Saved.");
  }

  async function onToggleDisabled() {
    const result = await submit(userDisabledSchema, { userId: user.id, disabled: !user.disabled }, setDisabled);
    if (result.ok) announce(user.disabled ? "Enabled." : "Disabled: signed out everywhere, API tokens refused.");
  }

  return (
    <tr className="align-top">
      <td className="py-2 pr-2">
        <div className="font-medium">
          {user.name ?? user.email} {user.disabled ? <Badge tone="red">disabled</Badge> : null}
        </div>
        {user.name ? <div className="text-xs text-slate-500">{user.email}</div> : null}
        {message ? <div className="text-xs text-slate-600">{message}</div> : null}
      </td>
      {isEditing ? (
        <td colSpan={3} className="py-2">
          <form onSubmit={onSubmit} className="space-y-2">
            <Select name="role" defaultValue={user.role} aria-label={`Role of ${user.email}`} disabled={isSelf}>
              <option value="ANNOTATOR">Annotator</option>
              <option value="REVIEWER">Reviewer</option>
              <option value="ADMIN">Admin</option>
            </Select>
            {isSelf ? <input type="hidden" name="role" value={user.role} /> : null}
            <LanguagePicker name="languages" defaultValue={user.languages} />
            <div className="flex gap-2">
              <Button type="submit" disabled={isPending}>
                Save
              </Button>
              <Button type="button" variant="secondary" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </div>
          </form>
        </td>
      ) : (
        <>
          <td className="py-2 pr-2">{user.role.toLowerCase()}</td>
          <td className="py-2 pr-2 text-slate-600">{user.languages.join(", ") || "—"}</td>
          <td className="space-x-2 whitespace-nowrap py-2 text-right">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Edit ${user.email}`}>
              Edit
            </Button>
            {isSelf ? null : (
              <Button
                variant={user.disabled ? "secondary" : "danger"}
                onClick={onToggleDisabled}
                disabled={isPending}
                aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.email}`}
              >
                {user.disabled ? "Enable" : "Disable"}
              </Button>
            )}
          </td>
        </>
      )}
    </tr>
  );
}
