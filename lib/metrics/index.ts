// Public surface of the metrics library: pure agreement, interval and final-label maths.
export * from "./agreement";
export * from "./final-label";
export * from "./intervals";
