// Cells of Verity's CSV files are opened in spreadsheets, and much of their text comes from people or
// from the generator (notes, reasons, campaign names, record fields). Pure, so it is unit-tested.

// OWASP's list for CSV injection: a spreadsheet reads a cell that starts with one of these as a formula.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet shows as text: one that would start a formula (=, +, -, @, tab, CR) gets
 * a leading apostrophe, as OWASP recommends. Numbers Verity computes (a negative kappa) stay numbers.
 */
export function spreadsheetSafe<T>(cell: T): T | string {
  return typeof cell === "string" && FORMULA_START.test(cell) ? `'${cell}` : cell;
}
