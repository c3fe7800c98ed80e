export * from "./errors";
export * from "./handlers";
export * from "./http";
export * from "./openapi";
export * from "./schemas/common";
export * from "./schemas/requests";
export * from "./schemas/responses";
export * from "./serialize-check";
