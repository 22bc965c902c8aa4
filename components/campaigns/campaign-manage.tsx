"use client";

import { useRouter } from "next/navigation";
import type { z } from "zod";

import { Button, ErrorNote, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import {
  type CampaignStatus,
  campaignIdSchema,
  campaignSettingsActionSchema,
  type CampaignStatusAction,
  campaignStatusActionSchema,
} from "@/lib/validation/campaigns";
import type { Action, ActionResult } from "@/lib/actions/result";
import { type PreLabelVisibilityName, VISIBILITY_EXPLANATIONS } from "@/lib/evidence/visibility";

import { GoldShareField } from "./share-field";
import { VisibilitySelect } from "./visibility-select";

/** The status actions offered in each status, with what they do. */
const STATUS_ACTIONS: Record<CampaignStatus, { action: CampaignStatusAction; label: string; hint: string }[]> = {
  ACTIVE: [
    { action: "pause", label: "Pause", hint: "No new items are handed out; current leases end now." },
    { action: "close", label: "Close", hint: "Labelling is over; current leases end now." },
  ],
  PAUSED: [
    { action: "resume", label: "Resume", hint: "Hand out items again." },
    { action: "close", label: "Close", hint: "Labelling is over." },
  ],
  CLOSED: [
    { action: "reopen", label: "Reopen", hint: "Hand out items again." },
    { action: "archive", label: "Archive", hint: "Keep it, out of the way." },
  ],
  ARCHIVED: [{ action: "unarchive", label: "Unarchive", hint: "Back to closed." }],
};

type Props = {
  campaignId: string;
  name: string;
  overlap: number;
  goldShare: number;
  visibility: PreLabelVisibilityName;
  status: CampaignStatus;
  hasLabels: boolean;
  /** Someone has claimed an item: what annotators see before labelling is fixed. */
  hasClaims: boolean;
  updateSettings: Action<
    z.input<typeof campaignSettingsActionSchema>,
    { name: string; overlap: number; goldShare: number; visibility: PreLabelVisibilityName }
  >;
  changeStatus: Action<z.input<typeof campaignStatusActionSchema>, { status: CampaignStatus; endedLeases: number }>;
  deleteCampaign: Action<
    z.input<typeof campaignIdSchema>,
    { status: "DELETED" } | { status: "DELETING"; items: number }
  >;
};

/** Admin controls on the campaign page: settings, status, delete. */
export function CampaignManage({
  campaignId,
  name,
  overlap,
  goldShare,
  visibility,
  status,
  hasLabels,
  hasClaims,
  updateSettings,
  changeStatus,
  deleteCampaign,
}: Props) {
  const router = useRouter();
  const { submit, isPending, message: error, fieldErrors, notice, announce } = useAction();

  async function change<T>(call: Promise<ActionResult<T>>, done: (data: T) => string) {
    const result = await call;
    if (!result.ok) return;
    announce(done(result.data));
    router.refresh();
  }

  function onSave(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const nextOverlap = Number(form.get("overlap"));
    const nextGoldShare = Number(form.get("goldShare"));
    const nextVisibility = (form.get("visibility") ?? visibility) as PreLabelVisibilityName;
    const input = {
      campaignId,
      name: String(form.get("name")),
      ...(hasLabels || nextOverlap === overlap ? {} : { overlap: nextOverlap }),
      ...(nextGoldShare === goldShare ? {} : { goldShare: nextGoldShare }),
      ...(hasClaims || nextVisibility === visibility ? {} : { visibility: nextVisibility }),
    };
    return change(
      submit(campaignSettingsActionSchema, input, updateSettings),
      (data) =>
        `Saved: “${data.name}”, overlap ${data.overlap}.${data.goldShare > 0 ? ` Gold share ${data.goldShare}.` : ""}` +
        ` Before their first label annotators see: ${VISIBILITY_EXPLANATIONS[data.visibility].label.toLowerCase()}.`,
    );
  }

  async function onDelete() {
    if (!window.confirm(`Delete “${name}” and its items? This cannot be undone.`)) return;
    if ((await submit(campaignIdSchema, { campaignId }, deleteCampaign)).ok) router.push("/campaigns");
  }

  return (
    <div className="space-y-4">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {notice ? (
        <p role="status" className="text-sm text-emerald-800">
          {notice}
        </p>
      ) : null}
      <form onSubmit={onSave} className="flex flex-wrap items-end gap-3" aria-label="Campaign settings">
        <Field label="Name" htmlFor="campaign-name" error={fieldErrors.name?.[0]}>
          <Input id="campaign-name" name="name" defaultValue={name} required maxLength={100} className="w-72" />
        </Field>
        <Field
          label="Overlap"
          htmlFor="campaign-overlap"
          error={fieldErrors.overlap?.[0]}
          hint={hasLabels ? "Fixed once items are labelled." : "Annotators per item."}
        >
          <Input
            id="campaign-overlap"
            name="overlap"
            type="number"
            min={1}
            max={10}
            defaultValue={overlap}
            disabled={hasLabels}
            className="w-24"
          />
        </Field>
        <GoldShareField
          defaultValue={goldShare}
          hint="0–0.5 of each annotator's items."
          error={fieldErrors.goldShare?.[0]}
          className="w-24"
        />
        <VisibilitySelect
          id="campaign-settings-visibility"
          defaultValue={visibility}
          isDisabled={hasClaims}
          hint={hasClaims ? "Fixed once items are claimed." : undefined}
        />
        <Button type="submit" variant="secondary" disabled={isPending}>
          Save settings
        </Button>
      </form>
      <div className="flex flex-wrap items-center gap-3" role="group" aria-label="Status">
        {STATUS_ACTIONS[status].map(({ action, label, hint }) => (
          <Button
            key={action}
            type="button"
            variant="secondary"
            title={hint}
            disabled={isPending}
            onClick={() =>
              change(
                submit(campaignStatusActionSchema, { campaignId, action }, changeStatus),
                (data) =>
                  `Now ${data.status.toLowerCase()}${data.endedLeases ? `; ${data.endedLeases} leases ended` : ""}.`,
              )
            }
          >
            {label}
          </Button>
        ))}
        {hasLabels ? (
          <span className="text-xs text-slate-500">Labelled campaigns cannot be deleted; close or archive them.</span>
        ) : (
          <Button type="button" variant="danger" disabled={isPending} onClick={onDelete}>
            Delete campaign
          </Button>
        )}
      </div>
    </div>
  );
}
