export * from "./metrics";
export * from "./start-worker";
