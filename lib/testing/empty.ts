// Stands in for "server-only" under Vitest, where the react-server condition is not set.
export {};
