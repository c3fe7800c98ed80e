export * from "./fake-svix";
export * from "./private-redis";
export * from "./webhook-receiver";
