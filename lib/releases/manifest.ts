// The manifest of a release folder: every file's size and sha256, in path order, so a copy can be
// checked against it. Pure: the caller hashes the files as it writes them.

export type ManifestFile = { path: string; bytes: number; sha256: string };

/** manifest.json's text: the release, its one timestamp and its files sorted by path. */
export function releaseManifest({
  dataset,
  name,
  createdAt,
  files,
}: {
  dataset: string;
  name: string;
  createdAt: string;
  files: ManifestFile[];
}): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return `${JSON.stringify({ dataset, release: name, created_at: createdAt, files: sorted }, null, 2)}\n`;
}
