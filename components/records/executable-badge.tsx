import { Badge } from "@/components/ui/primitives";

/** Batch verification's verdict: does the canonical solution pass both of its tests? */
export function ExecutableBadge({ value }: { value: boolean | null }) {
  if (value === true) return <Badge tone="green" title="The canonical solution PASSED the demo and the full test">passes</Badge>;
  if (value === false) return <Badge tone="red" title="The canonical solution did not pass its own tests">fails</Badge>;
  return <Badge title="Not verified yet (or its language is unavailable in the sandbox)">not run</Badge>;
}
