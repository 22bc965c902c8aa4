// What changed between two releases of a dataset. Pure.

export type DiffEntry = {
  recordId: number;
  key: string;
  line: number;
  language: string;
  revision: number;
  included: boolean;
};
type DiffRecord = { key: string; line: number; language: string; revision: number };
export type ReleaseDiff = {
  added: DiffRecord[];
  removed: DiffRecord[];
  revised: (DiffRecord & { fromRevision: number })[];
};

/**
 * Records in B and not in A (added), in A and not in B (removed), and in both at different revisions
 * (revised), each list in record order. A record out of a release counts as not in it.
 */
export function diffReleases(a: DiffEntry[], b: DiffEntry[]): ReleaseDiff {
  const inA = new Map(a.filter((entry) => entry.included).map((entry) => [entry.recordId, entry]));
  const inB = new Map(b.filter((entry) => entry.included).map((entry) => [entry.recordId, entry]));
  const shown = ({ key, line, language, revision }: DiffEntry): DiffRecord => ({ key, line, language, revision });
  const byRecord = (x: DiffEntry, y: DiffEntry) => x.recordId - y.recordId;
  return {
    added: [...inB.values()]
      .filter((entry) => !inA.has(entry.recordId))
      .sort(byRecord)
      .map(shown),
    removed: [...inA.values()]
      .filter((entry) => !inB.has(entry.recordId))
      .sort(byRecord)
      .map(shown),
    revised: [...inB.values()]
      .filter((entry) => inA.has(entry.recordId) && inA.get(entry.recordId)!.revision !== entry.revision)
      .sort(byRecord)
      .map((entry) => ({ ...shown(entry), fromRevision: inA.get(entry.recordId)!.revision })),
  };
}
