import { Badge } from "@/components/ui/primitives";
import { ENVIRONMENT_FAILURE, outcomeWords, SANDBOX_ERROR, UNAVAILABLE } from "@/lib/records/verification";

/**
 * Batch verification's verdict: does the canonical solution pass both of its tests? A language that
 * cannot run here is "unavailable here", never a failure nor a pending run; tests whose outcome
 * changes between runs are "flaky".
 */
export function ExecutableBadge({
  value,
  outcome = null,
  flaky = null,
  isHidden = false,
}: {
  value: boolean | null;
  outcome?: string | null;
  /** Repeated runs gave different outcomes: a state of its own, neither passing nor failing. */
  flaky?: boolean | null;
  /** The campaign shows annotators nothing before their first label: execution is not theirs to see yet. */
  isHidden?: boolean;
}) {
  if (isHidden)
    return (
      <Badge title="This campaign shows its records' execution only after your first label">execution hidden</Badge>
    );
  if (flaky === true)
    return (
      <Badge
        tone="amber"
        title="Running its tests several times gave different outcomes: its tests are nondeterministic"
      >
        flaky
      </Badge>
    );
  if (value === true)
    return (
      <Badge tone="green" title="The canonical solution PASSED the demo and the full test">
        passes
      </Badge>
    );
  if (value === false) {
    return (
      <Badge tone="red" title="The canonical solution did not pass its own tests">
        {outcome ? `fails · ${outcomeWords(outcome)}` : "fails"}
      </Badge>
    );
  }
  if (outcome === UNAVAILABLE)
    return (
      <Badge
        tone="amber"
        title="Its language has no toolchain in this sandbox (and no acb route): it cannot be verified here"
      >
        unavailable here
      </Badge>
    );
  if (outcome === SANDBOX_ERROR)
    return (
      <Badge tone="amber" title="The sandbox failed before the program started: nothing is known about this record yet">
        not run (sandbox error)
      </Badge>
    );
  if (outcome === ENVIRONMENT_FAILURE)
    return (
      <Badge
        tone="amber"
        title="A module, header, package, library or crate its run needs is not installed here: nothing is known about the record itself"
      >
        not run: environment
      </Badge>
    );
  return <Badge title="Not verified yet">not run</Badge>;
}
