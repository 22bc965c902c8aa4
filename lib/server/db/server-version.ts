import "server-only";

import pg from "pg";

/**
 * The oldest PostgreSQL major version Verity supports. The migrations and queries need 13
 * (built-in gen_random_uuid, DROP DATABASE … WITH (FORCE) in the tools, pg-boss 10), and 13 is
 * out of support upstream; the test suite runs on 15 (Debian 12) and 18 (embedded).
 */
export const MIN_POSTGRES_MAJOR = 14;

/**
 * Why a server of this version cannot run Verity, or null when it can. `versionNum` is
 * server_version_num (e.g. 150014), `version` its readable form. Pure, so it is unit-tested.
 */
export function unsupportedServerReason({
  versionNum,
  version,
  minimumMajor = MIN_POSTGRES_MAJOR,
}: {
  versionNum: number;
  version: string;
  minimumMajor?: number;
}): string | null {
  if (versionNum >= minimumMajor * 10_000) return null;
  return `PostgreSQL ${version.split(" ")[0]} is too old: Verity needs PostgreSQL ${minimumMajor} or newer. Upgrade the server, or point DATABASE_URL at a newer one (nothing was changed in the database).`;
}

/** Throws with a clear message when the server behind `databaseUrl` is older than Verity supports. */
export async function assertSupportedServer(databaseUrl: string, minimumMajor = MIN_POSTGRES_MAJOR): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string; num: string }>(
      "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS num",
    );
    const reason = unsupportedServerReason({ versionNum: Number(rows[0].num), version: rows[0].version, minimumMajor });
    if (reason) throw new Error(reason);
  } finally {
    await client.end();
  }
}
