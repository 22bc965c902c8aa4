// The record format shared by the CLI and the web app: languages, keys, critic verdicts, validation, reading, field mappings.
export * from "./critic";
export * from "./hash";
export * from "./languages";
export * from "./reader";
export * from "./validate";
export * from "./mapping";
export * from "./harness";
