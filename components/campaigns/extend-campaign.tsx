"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { z } from "zod";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { languageName } from "@/lib/records/languages";
import type { Action } from "@/lib/actions/result";
import { extendCampaignActionSchema } from "@/lib/validation/campaigns";

type Extension = {
  status: "SUCCEEDED";
  added: number;
  perLanguage: number | null;
  before: Record<string, number>;
  after: Record<string, number>;
};

/**
 * Adds records to a running campaign: a larger sample per language under the campaign's seed (the
 * records a campaign created with that size would hold), then the strata before and after; a large
 * one is added by a job, which the page's notice follows (ExtensionNotice).
 */
export function ExtendCampaign({
  campaignId,
  perLanguage,
  extend,
}: {
  campaignId: string;
  perLanguage: number | null;
  extend: Action<
    z.input<typeof extendCampaignActionSchema>,
    Extension | { status: "RUNNING"; perLanguage: number | null; total: number }
  >;
}) {
  const router = useRouter();
  const [size, setSize] = useState(perLanguage === null ? "" : String(perLanguage));
  const [result, setResult] = useState<Extension>();
  const { submit, isPending, message, fieldErrors } = useAction();
  const error = fieldErrors.perLanguage?.[0] ? `${message} ${fieldErrors.perLanguage[0]}` : message;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const perLanguage = size.trim() === "" ? null : Number(size);
    const outcome = await submit(extendCampaignActionSchema, { campaignId, perLanguage }, extend);
    if (!outcome.ok) return;
    if (outcome.data.status === "SUCCEEDED") setResult(outcome.data);
    // A job adds a large sample's items: the page's notice says so, and follows it until they are in.
    else router.refresh();
  }

  const languages = result ? Object.keys(result.after).sort() : [];
  return (
    <form onSubmit={onSubmit} className="space-y-3 text-sm" aria-label="Add records">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Records per language" htmlFor="extend-per-language">
          <Input
            id="extend-per-language"
            type="number"
            min={1}
            value={size}
            onChange={(event) => setSize(event.target.value)}
            placeholder="all"
            className="w-32"
          />
        </Field>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Adding…" : "Add records"}
        </Button>
      </div>
      <p className="text-xs text-slate-500">
        The sample grows under the campaign&apos;s seed: it then holds what a campaign created with this size would.
        Labels so far stay; leave empty to take every record.
      </p>
      {result ? (
        <div role="status" className="space-y-2">
          <p className="text-emerald-800">
            Added {result.added} record{result.added === 1 ? "" : "s"}.
          </p>
          <table className="text-sm">
            <caption className="sr-only">Items per language before and after</caption>
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th scope="col" className="pr-4">
                  Language
                </th>
                <th scope="col" className="pr-4 text-right">
                  Before
                </th>
                <th scope="col" className="pr-4 text-right">
                  After
                </th>
                <th scope="col" className="text-right">
                  Added
                </th>
              </tr>
            </thead>
            <tbody>
              {languages.map((language) => (
                <tr key={language}>
                  <th scope="row" className="pr-4 text-left font-normal">
                    {languageName(language)}
                  </th>
                  <td className="pr-4 text-right tabular-nums">{result.before[language] ?? 0}</td>
                  <td className="pr-4 text-right tabular-nums">{result.after[language]}</td>
                  <td className="text-right tabular-nums">
                    +{result.after[language] - (result.before[language] ?? 0)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </form>
  );
}
