export * from "./private-redis";
export * from "./webhook-receiver";
