/**
 * The database a vitest worker (VITEST_POOL_ID, 1 to maxWorkers) runs its integration files on: a
 * copy of the migrated template that global-setup.ts makes before any file runs.
 */
export function workerDatabaseName(template: string, poolId: number): string {
  return `${template}_w${poolId}`;
}
