"use client";

import { useState } from "react";

import { Button, ErrorNote, Field, Input, Select } from "@/components/ui/primitives";
import type { LANGUAGES } from "@/lib/records/languages";
import type { Action } from "@/lib/server/action";

import { InvitationLink } from "./invitation-link";
import { LanguagePicker } from "./language-picker";

export function InviteForm({
  invite,
}: {
  invite: Action<
    { email: string; role: "ADMIN" | "REVIEWER" | "ANNOTATOR"; languages: (typeof LANGUAGES)[number][] },
    { link: string }
  >;
}) {
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [isPending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setPending(true);
    const result = await invite({
      email: String(form.get("email")),
      role: String(form.get("role")) as "ANNOTATOR",
      languages: form.getAll("languages").map(String) as (typeof LANGUAGES)[number][],
    });
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      setFieldErrors(result.fieldErrors ?? {});
      setLink(undefined);
      return;
    }
    setError(undefined);
    setFieldErrors({});
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
