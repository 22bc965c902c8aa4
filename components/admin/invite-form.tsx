"use client";

import { useState } from "react";

import { Button, ErrorNote, Field, Input, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import type { Action } from "@/lib/actions/result";
import { type InviteInput, inviteSchema } from "@/lib/validation/auth";

import { InvitationLink } from "./invitation-link";
import { LanguagePicker } from "./language-picker";

export function InviteForm({ invite }: { invite: Action<InviteInput, { link: string }> }) {
  const [link, setLink] = useState<string>();
  const { submit, isPending, message: error, fieldErrors } = useAction();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setLink(undefined);
    const input = {
      email: String(form.get("email")),
      role: String(form.get("role")) as InviteInput["role"],
      languages: form.getAll("languages").map(String) as InviteInput["languages"],
    };
    const result = await submit(inviteSchema, input, invite);
    if (!result.ok) return;
    setLink(result.data.link);
    formElement.reset();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Field label="Email" htmlFor="invite-email" error={fieldErrors.email?.[0]}>
        <Input id="invite-email" name="email" type="email" required />
      </Field>
      <Field label="Role" htmlFor="invite-role">
        <Select id="invite-role" name="role" defaultValue="ANNOTATOR">
          <option value="ANNOTATOR">Annotator</option>
          <option value="REVIEWER">Reviewer</option>
          <option value="ADMIN">Admin</option>
        </Select>
      </Field>
      <div>
        <span className="mb-1 block text-sm font-medium text-slate-700">Languages they know</span>
        <LanguagePicker name="languages" />
      </div>
      <Button type="submit" disabled={isPending}>
        {isPending ? "Creating…" : "Create invitation link"}
      </Button>
      {link ? <InvitationLink link={link} note="Invitation link (valid 7 days, usable once):" /> : null}
    </form>
  );
}
