import { type Browser, type Cookie, expect, type Page } from "@playwright/test";

import { setupCodeFor } from "../lib/auth/setup-code";

/** The e2e server's session secret (playwright.config.ts); the first-admin setup code derives from it. */
export const E2E_SECRET = "e2e-only-secret-not-for-production";
export const setupCode = setupCodeFor(E2E_SECRET);

// The accounts the foundation spec creates first; a later spec calls ensurePeople so that it also
// runs alone, on a fresh database.
export const admin = { email: "admin@example.test", password: "admin-password-1" };
export const annotator = { email: "ann@example.test", password: "annotator-password-1" };

// A browser marks its own same-origin requests (Sec-Fetch-Site); Playwright's API client sends no
// such header, and the API refuses session-cookie writes that do not show they come from Verity.
export const SAME_ORIGIN = { "sec-fetch-site": "same-origin" };

/**
 * The tag of a spec that changes or fills something of the whole server (not only its own data),
 * which another spec running at the same moment would see or break: playwright.config.ts runs the
 * specs carrying it in a lane of their own, one at a time, after the parallel lane. Put it on the
 * spec's outermost describe (or its only test) so the whole file moves with it.
 */
export const GLOBAL_STATE = "@global-state";

type Person = { email: string; password: string };
type Role = "ADMIN" | "ANNOTATOR" | "REVIEWER";

// Each person's session cookies from their first sign-in in this worker (through the sign-in page,
// the first-admin form or an accepted invitation), by email: Playwright's stored session state, kept
// per person. Signing in is the subject of a few specs only (foundation, sessions, sign-in-deep-link,
// sign-in-limits, security-http), which sign in through the page; elsewhere it is setup, and a page
// given an earlier sign-in's cookies is signed in as a second sign-in would leave it, without the
// sign-in page's round trips and its bcrypt check each time.
const sessions = new Map<string, Cookie[]>();

/**
 * Signs the page in as the person: with their session from an earlier sign-in in this worker while
 * the server still takes it (a sign-out or a disabled account ends it), else through the sign-in page.
 */
export async function signIn(page: Page, user: Person) {
  if (await resumeSession(page, user)) return;
  await signInThroughPage(page, user);
}

/** Signs in through the sign-in page, as a person does (for the specs about signing in), and keeps the session. */
export async function signInThroughPage(page: Page, user: Person) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/datasets$/);
  await keepSession(page, user);
}

async function keepSession(page: Page, user: Person) {
  sessions.set(user.email, await page.context().cookies());
}

/** Gives the page the person's kept session cookies and opens the datasets; false if there are none or the server refused them. */
async function resumeSession(page: Page, user: Person): Promise<boolean> {
  const cookies = sessions.get(user.email);
  if (!cookies) return false;
  await page.context().addCookies(cookies);
  await page.goto("/datasets");
  if (new URL(page.url()).pathname === "/datasets") return true;
  sessions.delete(user.email);
  await page.context().clearCookies();
  return false;
}

/** Signs in as the admin, creating the admin first on an empty database, so a spec can run alone. */
export async function signInAsAdmin(page: Page) {
  if (await resumeSession(page, admin)) return;
  await page.goto("/signin");
  const firstAdmin = page.getByRole("heading", { name: "Create the first admin" });
  await expect(firstAdmin.or(page.getByRole("heading", { name: "Sign in" }))).toBeVisible();
  if (!(await firstAdmin.isVisible())) return signIn(page, admin);
  await page.getByLabel("Setup code").fill(setupCode);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByRole("heading", { name: "Datasets" })).toBeVisible();
  await keepSession(page, admin);
}

/** The admin invites someone (Python) on the Users page; the invitee sets a name and password in a fresh browser. */
export async function invite(page: Page, browser: Browser, user: Person & { name: string }, role: Role) {
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Role").selectOption(role);
  await page.getByLabel("Python").check();
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = page.getByLabel("Invitation link");
  await expect(link).toHaveValue(/\/invite\/inv_/);
  await acceptInvitation(browser, await link.inputValue(), user, role);
}

/** The invitee opens their link in a fresh browser and sets a name and password. */
async function acceptInvitation(browser: Browser, link: string, user: Person & { name: string }, role: Role) {
  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(link);
  await invitee.getByLabel("Your name").fill(user.name);
  await invitee.getByLabel("Password").fill(user.password);
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee.getByText(`${user.name} · ${role.toLowerCase()}`)).toBeVisible();
  // Accepting signed them in: a later signIn as them takes this session.
  await keepSession(invitee, user);
  await invitee.context().close();
}

/** Makes sure the admin exists, creating the first admin on a fresh database. */
export async function ensureAdmin(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await signInAsAdmin(page);
  await page.context().close();
}

/**
 * Makes sure the shared admin and Python annotator exist, creating them through the UI (first admin,
 * invitation) when the spec runs on a fresh database, so that no spec depends on another one.
 */
export async function ensurePeople(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsAdmin(page);
  // A kept session of the annotator's says they exist; else a sign-in tells.
  if (!sessions.has(annotator.email)) {
    const probe = await (await browser.newContext()).newPage();
    await probe.goto("/signin");
    await probe.getByLabel("Email").fill(annotator.email);
    await probe.getByLabel("Password").fill(annotator.password);
    await probe.getByRole("button", { name: "Sign in" }).click();
    const refused = probe.getByText("Wrong email or password.");
    await expect(refused.or(probe.getByRole("heading", { name: "Datasets" }))).toBeVisible();
    if (await refused.isVisible()) await addPerson(page, { ...annotator, name: "Ann Otator" }, "ANNOTATOR");
    else await keepSession(probe, annotator);
    await probe.context().close();
  }
  await context.close();
}

// Setup through the REST API, so that each test brings the state it needs in a second or two and
// runs alone. The tests then assert through the pages as a person uses them.

/** A name no other test of the run uses, for datasets, campaigns and people. */
export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * A fresh browser context signed in as the person, through next-auth's own endpoints rather than the
 * sign-in page (setup, not the subject of a test); its page's request speaks the API with their session.
 */
export async function signedInPage(browser: Browser, user: Person) {
  const page = await (await browser.newContext()).newPage();
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const reply = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: user.email, password: user.password, json: "true" },
  });
  expect(reply.status()).toBe(200);
  const { url } = (await reply.json()) as { url: string };
  expect(new URL(url).searchParams.get("error")).toBeNull();
  return page;
}

/** Imports records (objects, or an NDJSON body as it is) into a dataset as the signed-in page's person. */
export async function importRecords(page: Page, dataset: string, records: object[] | string | Buffer) {
  const data = Array.isArray(records) ? records.map((record) => JSON.stringify(record)).join("\n") : records;
  const imported = await page.request.post(`/api/v1/datasets/${dataset}/records`, {
    data,
    headers: { ...SAME_ORIGIN, "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
}

/** The dataset's records as the API lists them (first page), in import order. */
export async function listRecords(page: Page, dataset: string) {
  const listed = await page.request.get(`/api/v1/datasets/${dataset}/records`);
  expect(listed.status()).toBe(200);
  return ((await listed.json()) as { records: { id: number; question: string }[] }).records;
}

/** Creates a campaign as the signed-in page's person; returns its id and item count. */
export async function createCampaign(page: Page, data: { dataset: string; name: string } & Record<string, unknown>) {
  const created = await page.request.post("/api/v1/campaigns", {
    headers: SAME_ORIGIN,
    data: { languages: ["python"], seed: "e2e", ...data },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: string; itemCount: number };
}

/** Verifies every record of the dataset in the sandbox and waits for the batch to finish; returns its id. */
export async function verifyDataset(page: Page, dataset: string) {
  const started = await page.request.post(`/api/v1/datasets/${dataset}/verifications`, {
    data: {},
    headers: SAME_ORIGIN,
  });
  expect(started.status()).toBe(202);
  const { batchId } = (await started.json()) as { batchId: string };
  await expect(async () => {
    const progress = (await (await page.request.get(`/api/v1/verifications/${batchId}`)).json()) as { status: string };
    expect(progress.status).toBe("SUCCEEDED");
  }).toPass({ timeout: 90_000 });
  return batchId;
}

/** The signed-in admin invites a Python person through the API; they accept the link in a fresh browser. */
export async function addPerson(page: Page, user: Person & { name: string }, role: Role) {
  const invited = await page.request.post("/api/v1/invitations", {
    headers: SAME_ORIGIN,
    data: { email: user.email, role, languages: ["python"] },
  });
  expect(invited.status()).toBe(201);
  const { link } = (await invited.json()) as { link: string };
  await acceptInvitation(page.context().browser()!, link, user, role);
}

/** Claims the signed-in person's next item of the campaign through the API. */
async function claim(page: Page, campaignId: string) {
  const claimed = await page.request.post(`/api/v1/campaigns/${campaignId}/claim`, { headers: SAME_ORIGIN });
  expect(claimed.status()).toBe(200);
  return (await claimed.json()) as { item: { id: string }; record: { id: number } };
}

/** Saves the signed-in person's label on an item they hold; a revision passes its baseRevision. */
async function saveLabel(page: Page, itemId: string, body: { valid: boolean } & Record<string, unknown>) {
  const saved = await page.request.post(`/api/v1/items/${itemId}/annotations`, {
    headers: SAME_ORIGIN,
    data: { categories: [], ...body },
  });
  expect(saved.status()).toBe(body.baseRevision ? 200 : 201);
}

/** Claims the person's next item of the campaign and labels it; returns the item's and record's ids. */
export async function claimAndLabel(
  page: Page,
  campaignId: string,
  body: { valid: boolean } & Record<string, unknown>,
) {
  const { item, record } = await claim(page, campaignId);
  await saveLabel(page, item.id, body);
  return { itemId: item.id, recordId: record.id };
}
