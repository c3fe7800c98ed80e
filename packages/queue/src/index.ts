export * from "./catalogue";
export * from "./connection";
export * from "./jobs-client";
export * from "./pubsub";
