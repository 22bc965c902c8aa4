"use client";

import { signOut } from "next-auth/react";

import { clearLabelDrafts } from "@/components/workspace/use-label-draft";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => {
        clearLabelDrafts();
        void signOut({ callbackUrl: "/signin" });
      }}
      className="text-slate-600 underline-offset-2 hover:underline"
    >
      Sign out
    </button>
  );
}
