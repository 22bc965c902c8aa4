// Shared by the queue benchmarks (queue.ts, queue-scale.ts): synthetic records and the REST calls an
// annotator makes (the app itself is started by app.ts).
import type pg from "pg";

/** `count` synthetic records written straight in SQL (the import path has its own benchmark). */
export async function seedRecords(
  client: pg.Client,
  { dataset, count, languages }: { dataset: string; count: number; languages: readonly string[] },
): Promise<void> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO "Dataset" (id, name) VALUES ('ds_' || md5($1), $1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [dataset],
  );
  await client.query(
    `INSERT INTO "Record" ("datasetId", key, line, language, difficulty, question, "canonicalSolution", "demoTestFunc", "fullTestFunc")
     SELECT $1, md5('rec' || i), i, ($2::text[])[1 + i % array_length($2::text[], 1)], (ARRAY['easy','medium','hard'])[1 + i % 3],
            '# Problem ' || i || E'\\n\\n' || repeat('Write a function that handles case ' || i || '. ', 12),
            repeat('def solve_' || i || '(x):\n    return x\n', 12), 'assert solve_' || i || '(1) == 1\n', repeat('assert solve_' || i || '(2) == 2\n', 10)
     FROM generate_series(1, $3::int) AS i
     ON CONFLICT ("datasetId", key) DO NOTHING`,
    [rows[0].id, [...languages], count],
  );
}

/**
 * Every item of a campaign labelled by `target` annotators taken in turn from `userIds`, written in
 * SQL (one label in five Invalid, by hash, unless `allValid`): the 300,000-label shape of the review,
 * agreement and report benchmarks. The labels' trigger keeps the item counters; the slots are set
 * here. Written 5,000 items per statement: the kept-final-label triggers recompute the items a
 * statement wrote as one set, and one statement over a whole campaign of 100,000 once took more
 * than 24 minutes.
 */
export async function fillOverlapCampaign(
  client: pg.Client,
  campaignId: string,
  userIds: string[],
  { allValid = false }: { allValid?: boolean } = {},
): Promise<void> {
  const {
    rows: [{ last }],
  } = await client.query<{ last: number | null }>(
    `SELECT max(position) AS last FROM "CampaignItem" WHERE "campaignId" = $1`,
    [campaignId],
  );
  for (let from = 0; from <= (last ?? -1); from += FILL_CHUNK_ITEMS) {
    const range = [campaignId, from, from + FILL_CHUNK_ITEMS];
    const inRange = `i."campaignId" = $1 AND i.position >= $2 AND i.position < $3`;
    await client.query(
      `INSERT INTO "Assignment" (id, "itemId", "userId", status, "leaseExpiresAt", "finishedAt")
       SELECT 'asg_' || md5(i.id || k), i.id, ($4::text[])[1 + (i.position + k) % array_length($4::text[], 1)], 'SUBMITTED', now(), now()
       FROM "CampaignItem" i CROSS JOIN generate_series(0, i.target - 1) k WHERE ${inRange}`,
      [...range, userIds],
    );
    await client.query(
      `INSERT INTO "Annotation" (id, "itemId", "userId", valid, categories, "preRevealCategories", "activeMs", "updatedAt")
       SELECT 'ann_' || md5(a.id), a."itemId", a."userId", $4 OR (hashtext(a.id) % 5) <> 0, '{}', '{}', 30000, now() FROM "Assignment" a
       JOIN "CampaignItem" i ON i.id = a."itemId" WHERE ${inRange}`,
      [...range, allValid],
    );
    // The labels' trigger keeps the counters; the slots are the claim path's, set here.
    await client.query(`UPDATE "CampaignItem" i SET "slotsTaken" = target WHERE ${inRange}`, range);
  }
}

const FILL_CHUNK_ITEMS = 5_000;

export async function time<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

export type Claimed = { status: "claimed"; itemId: string } | { status: "empty" } | { status: "error"; code: number };

/**
 * POST /api/v1/campaigns/{id}/claim with a bearer token, naming the client when it has a name (each
 * named client of a token holds its own lease); reads the body so the timing covers the whole response.
 */
export async function claimItem(base: string, token: string, campaignId: string, client?: string): Promise<Claimed> {
  const response = await fetch(`${base}/api/v1/campaigns/${campaignId}/claim`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, ...(client ? { "content-type": "application/json" } : {}) },
    ...(client ? { body: JSON.stringify({ client }) } : {}),
  });
  if (response.status === 204) return { status: "empty" };
  if (!response.ok) {
    await response.arrayBuffer();
    return { status: "error", code: response.status };
  }
  const { item } = (await response.json()) as { item: { id: string } | null };
  // No item now, the rest leased by other clients: for a load benchmark, this client is done too.
  if (!item) return { status: "empty" };
  return { status: "claimed", itemId: item.id };
}

/**
 * POST /api/v1/items/{id}/annotations (a "valid" label): "new" when the server stored a new label
 * (201), "same" when it answered the caller's existing one (200: another client of the same person
 * had labelled the item), "error" otherwise.
 */
export async function submitLabel(base: string, token: string, itemId: string): Promise<"new" | "same" | "error"> {
  const response = await fetch(`${base}/api/v1/items/${itemId}/annotations`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ valid: true, categories: [], activeMs: 1000 }),
  });
  await response.arrayBuffer();
  return response.status === 201 ? "new" : response.ok ? "same" : "error";
}

/** Items holding more assignments or labels than their target, and (item, annotator) pairs assigned twice. */
export async function countOverAssignment(
  client: pg.Client,
  campaignId: string,
): Promise<{ overAssigned: number; duplicates: number }> {
  const overAssigned = (
    await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM "CampaignItem" i WHERE i."campaignId" = $1 AND (i."slotsTaken" > i.target OR (SELECT count(*) FROM "Annotation" a WHERE a."itemId" = i.id) > i.target)`,
      [campaignId],
    )
  ).rows[0].n;
  const duplicates = (
    await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT "itemId", "userId" FROM "Assignment" a JOIN "CampaignItem" i ON i.id = a."itemId" WHERE i."campaignId" = $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
      [campaignId],
    )
  ).rows[0].n;
  return { overAssigned: Number(overAssigned), duplicates: Number(duplicates) };
}

/**
 * A client as the benchmarks drive one: an annotator's API token, the instance it calls and, for one
 * of several clients under a token, its own name (claimItem).
 */
export type Client = { token: string; base: string; name?: string };

/**
 * Closed loop: `clients` claim and submit with no pause for `seconds`. `labels` counts new labels
 * only; `sameLabels` the submits that found the person's label already there (clients sharing a lease).
 */
export async function runClosed(clients: Client[], campaignId: string, seconds: number) {
  const claimMs: number[] = [];
  const submitMs: number[] = [];
  let labels = 0;
  let sameLabels = 0;
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    clients.map(async ({ token, base, name }) => {
      while (Date.now() < deadline) {
        const claim = await time(() => claimItem(base, token, campaignId, name));
        if (claim.value.status === "empty") return;
        if (claim.value.status === "error") {
          errors += 1;
          continue;
        }
        claimMs.push(claim.ms);
        const itemId = claim.value.itemId;
        const submit = await time(() => submitLabel(base, token, itemId));
        if (submit.value === "error") {
          errors += 1;
          continue;
        }
        submitMs.push(submit.ms);
        if (submit.value === "new") labels += 1;
        else sameLabels += 1;
      }
    }),
  );
  return { claimMs, submitMs, labels, sameLabels, errors };
}
