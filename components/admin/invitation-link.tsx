"use client";

import { CopyButton } from "@/components/ui/copy-button";

/** A freshly issued invitation link, in full, with a copy button. It is shown once: only its hash is stored. */
export function InvitationLink({ link, note }: { link: string; note: string }) {
  return (
    <div className="rounded-md bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200" role="status">
      <p className="font-medium text-emerald-900">{note}</p>
      <textarea
        readOnly
        value={link}
        rows={2}
        aria-label="Invitation link"
        className="mt-1 w-full resize-none break-all rounded bg-white px-2 py-1 font-mono text-xs ring-1 ring-emerald-300"
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="mt-2 flex items-center gap-3">
        <CopyButton text={link} label="Copy link" />
        <span className="text-xs text-emerald-900">
          Send it now: it cannot be shown again (a new link can be issued from the list).
        </span>
      </div>
    </div>
  );
}
