// Prints one closing line for the whole suite from the Vitest and Playwright JSON reports:
// "Tests: N passed, N failed, N skipped".
import { readFileSync } from "node:fs";

const [vitestFile, playwrightFile] = process.argv.slice(2);
const vitest = JSON.parse(readFileSync(vitestFile, "utf8"));
const playwright = JSON.parse(readFileSync(playwrightFile, "utf8"));

const passed = vitest.numPassedTests + (playwright.stats.expected ?? 0);
const failed = vitest.numFailedTests + (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0);
const skipped = vitest.numPendingTests + vitest.numTodoTests + (playwright.stats.skipped ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
