"use client";

import { useState } from "react";

import { Select } from "@/components/ui/primitives";
import {
  PRE_LABEL_VISIBILITIES,
  type PreLabelVisibilityName,
  VISIBILITY_EXPLANATIONS,
} from "@/lib/evidence/visibility";

/**
 * What annotators see of a record before their first label (nothing, execution only, all but the
 * critic, all), with the chosen level's one-line explanation under the menu. Submits as `visibility`.
 */
export function VisibilitySelect({
  id,
  defaultValue = "all",
  isDisabled = false,
  hint,
}: {
  id: string;
  defaultValue?: PreLabelVisibilityName;
  isDisabled?: boolean;
  /** Shown after the explanation, e.g. why the level cannot change any more. */
  hint?: string;
}) {
  const [level, setLevel] = useState<PreLabelVisibilityName>(defaultValue);
  return (
    <div className="space-y-1 text-sm">
      <label htmlFor={id} className="block font-medium text-slate-700">
        Before their first label, annotators see
      </label>
      <Select
        id={id}
        name="visibility"
        value={level}
        disabled={isDisabled}
        onChange={(event) => setLevel(event.target.value as PreLabelVisibilityName)}
        className="w-64"
      >
        {PRE_LABEL_VISIBILITIES.map((name) => (
          <option key={name} value={name}>
            {VISIBILITY_EXPLANATIONS[name].label}
          </option>
        ))}
      </Select>
      <p className="text-xs text-slate-500" data-testid="visibility-explanation">
        {VISIBILITY_EXPLANATIONS[level].explanation}
        {level !== "all" ? " Their first label is kept as the pre-reveal label." : ""}
        {hint ? ` ${hint}` : ""}
      </p>
    </div>
  );
}
