// Run by embedded-postgres.int.test.ts in a child process: starts and stops an embedded server, sets
// an exit code and lets the process end by itself, as `vitest run` does after a failed test.
import { startEmbeddedPostgres } from "@/lib/server/db/embedded-postgres";

const [dataDir, port] = process.argv.slice(2);
const server = await startEmbeddedPostgres({ dataDir, port: Number(port) });
await server.stop();
process.exitCode = 3;
