export * from "./private-redis";
