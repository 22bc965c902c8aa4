"use client";

import { useState } from "react";

import { Button } from "@/components/ui/primitives";

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    window.setTimeout(() => setState("idle"), 2000);
  };
  return (
    <Button type="button" variant="secondary" onClick={() => void onCopy()} aria-live="polite">
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select the text" : label}
    </Button>
  );
}
