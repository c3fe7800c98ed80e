export * from "./fake-svix";
export * from "./ports";
export * from "./private-cluster";
export * from "./private-redis";
export * from "./webhook-receiver";
