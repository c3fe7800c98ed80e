export * from "./deps";
export * from "./paths";
export * from "./seed";
