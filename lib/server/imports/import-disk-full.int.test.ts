// An import that meets a full disk is told so (507, nothing imported), not "something went wrong"
// (500). PostgreSQL raises disk_full (SQLSTATE 53100) when it cannot extend a table; a trigger makes
// this test's own records meet it, through the real route, importer and database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as postRecords } from "@/app/api/v1/datasets/[name]/records/route";
import { SYSTEM_ACTOR } from "@/lib/server/auth/permissions";
import { prisma } from "@/lib/server/db/client";
import { createApiToken } from "@/lib/server/users/tokens";
import { makeRecord, makeUser, toJsonl, uniqueName } from "@/lib/testing/factories";

const MARK = "fills-the-disk";
let token: string;

beforeAll(async () => {
  const admin = await makeUser("ADMIN");
  token = (await createApiToken({ actor: SYSTEM_ACTOR.cli, userId: admin.id, name: "disk" })).token;
  await prisma().$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION verity_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.question LIKE '%${MARK}%' THEN
        RAISE EXCEPTION 'could not extend file "base/16384/16385": No space left on device' USING ERRCODE = 'disk_full';
      END IF;
      RETURN NEW;
    END $$`);
  await prisma().$executeRawUnsafe(
    `CREATE TRIGGER verity_test_disk_full BEFORE INSERT ON "Record" FOR EACH ROW EXECUTE FUNCTION verity_test_disk_full()`,
  );
});

afterAll(async () => {
  await prisma().$executeRawUnsafe(`DROP TRIGGER IF EXISTS verity_test_disk_full ON "Record"`);
  await prisma().$executeRawUnsafe(`DROP FUNCTION IF EXISTS verity_test_disk_full()`);
});

describe("an import on a full disk", () => {
  it("answers 507 with a message that says the disk is full, and imports nothing", async () => {
    const dataset = uniqueName("disk");
    const body = toJsonl([makeRecord(`disk_${Date.now()}`, { question: `Write add (${MARK}).` })]);
    const response = await postRecords(
      new Request(`http://localhost/api/v1/datasets/${dataset}/records`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
        body,
      }),
      { params: Promise.resolve({ name: dataset }) },
    );
    expect(response.status).toBe(507);
    const answer = (await response.json()) as { error: { code: string; message: string } };
    expect(answer.error.code).toBe("INSUFFICIENT_STORAGE");
    expect(answer.error.message).toMatch(/disk|space/i);
    expect(await prisma().record.count({ where: { dataset: { name: dataset } } })).toBe(0);
  });
});
